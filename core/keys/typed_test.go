package keys

import (
	"slices"
	"strings"
	"testing"
)

func TestCommonWords(t *testing.T) {
	t.Parallel()
	words := CommonWords()
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || w == "" {
			t.Errorf("word %q repeated or not lower-case letters", w)
		}
		seen[w] = true
	}
	if len(words) != 500 || words[0] != "the" {
		t.Errorf("%d words starting %q, want 500 starting \"the\"", len(words), words[0])
	}
}

func TestKeysForm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"apple", []string{"apple"}},
		{"apple,pear", []string{"apple", "pear"}},
		{`a\,b,c`, []string{"a,b", "c"}},
		{`a\\,b`, []string{`a\`, "b"}},
		{`a\b\`, []string{`a\b\`}},
		{"a,,b,", []string{"a", "", "b", ""}},
		{`bell\u{7},\u{20}x`, []string{"bell\a", " x"}},
		{`\u{zz},\u{110000},\u{41`, []string{`\u{zz}`, `\u{110000}`, `\u{41`}},
	} {
		got := Split(tc.in)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	list := []string{" apple", "pe,ar", `back\slash`, "tab\there", "bell\a", "√2 and 日本", `\u{41}`, ",", "ice cream ", `a\ `}
	joined := Join(list)
	if strings.ContainsAny(joined, "\t\a") || strings.HasPrefix(joined, " ") || strings.HasSuffix(joined, " ") {
		t.Errorf("%q keeps a character that does not print, or an edge space", joined)
	}
	if back := Split(joined); !slices.Equal(back, list) {
		t.Errorf("%q reads back as %q, want %q", joined, back, list)
	}
}

func TestCheckTyped(t *testing.T) {
	t.Parallel()
	if err := CheckTyped("--insert", []string{"ok", "pe\xffar"}); err == nil || err.Error() != `keys: --insert key 2 "pe\xffar" is not valid UTF-8; a key is 1 to 256 bytes of UTF-8 text` {
		t.Errorf("CheckTyped: %v", err)
	}
}
