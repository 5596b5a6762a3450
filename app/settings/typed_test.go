package settings

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/core/keys"

	"github.com/bloomlab/bloomlab/app/internal/linktest"
)

// TestTypedKeysRoundTrip: typed keys travel through a real URL, as a
// shared link does, and come back the same (the form itself is core's).
func TestTypedKeysRoundTrip(t *testing.T) {
	t.Parallel()
	keys := []string{" apple", "pe,ar", `back\slash`, "tab\there", "√2 and 日本", "ice cream "}
	s := DefaultLab()
	s.Typed = JoinTyped(keys)
	u, _ := url.Parse("https://lab.example/?" + s.Query().Encode())
	back, notices := LabFromQuery(u.Query())
	if !slices.Equal(back.Typed.List(), keys) || len(notices) > 0 {
		t.Errorf("through a URL: %q (%v), want %q", back.Typed.List(), notices, keys)
	}
}

func TestTypedKeysFromLink(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 200) // 400 bytes
	many := make([]string, 33)
	for i := range many {
		many[i] = "k" + strings.Repeat("x", i)
	}
	for _, tc := range []struct {
		name, raw string
		want      []string
		notice    string
	}{
		{"plain", "apple,pear", []string{"apple", "pear"}, ""},
		{"escaped comma", `pe\,ar`, []string{"pe,ar"}, ""},
		{"lone backslash", `a\`, []string{`a\`}, ""},
		{"bad escape", `\u{zz}`, []string{`\u{zz}`}, ""},
		{"empty key", "apple,,pear", []string{"apple", "pear"}, "try: key 2 is empty, so it was left out"},
		{"not UTF-8", "apple,pe\xffar", []string{"apple"}, `try: key 2 "pe\xffar" is not UTF-8 text, so it was left out`},
		{"too long", long, []string{long[:256]}, "is 400 bytes, so it was cut to its first 256"},
		{"twice", "apple,pear,apple", []string{"apple", "pear"}, `try: key 3 "apple" is given twice, so it is inserted once`},
		{"33 keys", strings.Join(many, ","), many[:32], "try: more than 32 keys given, so the first 32 are kept"},
	} {
		got, notices := parseTyped(tc.raw)
		if !slices.Equal(got.List(), tc.want) {
			t.Errorf("%s: %q gives %q, want %q", tc.name, tc.raw, got.List(), tc.want)
		}
		if tc.notice == "" && len(notices) > 0 || tc.notice != "" && !strings.Contains(strings.Join(notices, "\n"), tc.notice) {
			t.Errorf("%s: notices %q, want %q", tc.name, notices, tc.notice)
		}
		if err := keys.CheckTyped("insert", got.List()); err != nil || len(got.List()) > keys.MaxTyped {
			t.Errorf("%s: kept keys the key panel refuses: %v", tc.name, err)
		}
	}
}

func TestPlayAtFromLink(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query  string
		want   int
		notice string
	}{
		{linktest.Query(IDPlayAt, "1234"), 1234, ""},
		{linktest.Query(IDPlayAt, "1,234"), 1234, ""},
		{linktest.Query(IDPlayAt, "4000"), 0, ""},
		{linktest.Query(IDPlayAt, "off"), 0, ""},
		{linktest.Query(IDPlayAt, "4001"), 0, "play-at: 4001 is past the 4000 keys, so all are in"},
		{linktest.Query(IDPlayAt, "-3"), 0, "play-at: -3 is below 0, so all 4000 keys are in"},
		{linktest.Query(IDPlayAt, "half"), 0, `play-at: "half" is not a whole number of keys, so all 4000 are in`},
		{linktest.Query(IDPlayAt, "10", IDVariant, "fuse"), 0, "play-at: the fuse filter is built once from every key"},
		{linktest.Query(IDPlayAt, "100", IDItems, "50"), 0, "play-at: 100 is past the 50 keys"},
	} {
		q, _ := url.ParseQuery(tc.query)
		s, notices := LabFromQuery(q)
		if s.PlayAt != tc.want {
			t.Errorf("%s: play-at %d, want %d", tc.query, s.PlayAt, tc.want)
		}
		if tc.notice == "" && len(notices) > 0 || tc.notice != "" && !strings.Contains(strings.Join(notices, "\n"), tc.notice) {
			t.Errorf("%s: notices %q, want %q", tc.query, notices, tc.notice)
		}
		if p := s.Run(); tc.want > 0 && (p.Items != tc.want || p.M != 40000 || p.Hashes != 7) {
			t.Errorf("%s: runs n %d m %d k %d, want n %d m 40000 k 7", tc.query, p.Items, p.M, p.Hashes, tc.want)
		}
	}
}

// A link that repeats or spoils thousands of typed keys gets one notice a
// kind of change, with a count, and a notice never echoes a whole key.
func TestTypedKeysNoticesBounded(t *testing.T) {
	t.Parallel()
	raw := strings.Repeat("apple,", 3000) + strings.Repeat(",", 1000) + strings.Repeat("é", 300)
	_, notices := parseTyped(raw)
	want := []string{`try: 1000 keys are empty, so they were left out; the first is key 3001`,
		`try: key 4001 "éééééééééééé..." is 600 bytes, so it was cut to its first 256`,
		`try: 2999 keys are given again, so each is inserted once; the first is key 2 "apple"`}
	if strings.Join(notices, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(notices, "\n"), strings.Join(want, "\n"))
	}
}

// Repeated names a few repeated keys, counts the rest, and shortens the
// value it names.
func TestRepeatedBounded(t *testing.T) {
	t.Parallel()
	q := url.Values{}
	for i := range 100 {
		q[fmt.Sprintf("k%03d", i)] = []string{"1", strings.Repeat("2", 1000)}
	}
	notices := Repeated(q)
	if len(notices) != maxRepeated+1 || notices[0] != "k000: given 2 times, so the last, 222222222222222222222222..., is used" ||
		notices[maxRepeated] != "96 more keys are given more than once; the last value of each is used" {
		t.Errorf("notices: %q", notices)
	}
}
