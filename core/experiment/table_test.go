package experiment

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func sample() Table {
	return Table{
		Name:  "sample",
		Title: "a sample",
		Sizes: Sizes{Items: 10, Queries: 20, Seed: 3},
		Columns: []Column{{Key: "name", Title: "name", Kind: Text}, {Key: "k", Title: "k", Kind: Int},
			{Key: "rate", Title: "rate", Kind: Float, Decimals: 3}, {Key: "pct", Title: "pct", Kind: Float, Decimals: 2, Percent: true},
			{Key: "ci", Title: "95% CI", Kind: Interval, Decimals: 2}, {Key: "note", Title: "note", Kind: Text}},
		Rows: [][]Cell{
			{txt("short"), count(7), num(0.12345), num(0.0084), interval(0.1, 0.25), txt("x")},
			{txt("a longer name"), count(12), missing(), num(1), missing(), txt("")},
		},
		Notes: []string{"a note."},
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := sample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `a sample

name            k   rate      pct       95% CI  note
short           7  0.123    0.84%  [0.10,0.25]  x
a longer name  12      -  100.00%            -

a note.
`
	if b.String() != want {
		t.Errorf("text:\n%s\nwant (text left, numbers right, columns as wide as their widest cell):\n%s", b.String(), want)
	}
}

func TestWriteCSV(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := sample().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "name,k,rate,pct,ci_lo,ci_hi,note\n" +
		"short,7,0.12345,0.0084,0.1,0.25,x\n" +
		"a longer name,12,,1,,,\n"
	if b.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Name    string           `json:"name"`
		Sizes   Sizes            `json:"sizes"`
		Columns []Column         `json:"columns"`
		Rows    []map[string]any `json:"rows"`
		Notes   []string         `json:"notes"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	if got.Name != "sample" || got.Sizes.Items != 10 || len(got.Columns) != 6 || len(got.Rows) != 2 || got.Notes[0] != "a note." {
		t.Errorf("decoded %+v", got)
	}
	r0, r1 := got.Rows[0], got.Rows[1]
	if r0["name"] != "short" || r0["k"] != 7.0 || r0["rate"] != 0.12345 || r0["pct"] != 0.0084 {
		t.Errorf("row 0: %v", r0)
	}
	if ci, ok := r0["ci"].([]any); !ok || len(ci) != 2 || ci[0] != 0.1 || ci[1] != 0.25 {
		t.Errorf("interval %v, want [0.1, 0.25]", r0["ci"])
	}
	if v, present := r1["rate"]; !present || v != nil {
		t.Errorf("a missing cell is %v, want null", v)
	}
}

func TestCheckCatchesBadTables(t *testing.T) {
	t.Parallel()
	short := sample()
	short.Rows[0] = short.Rows[0][:2]
	nan := sample()
	nan.Rows[0][2] = num(math.NaN())
	inf := sample()
	inf.Rows[0][4] = interval(0, math.Inf(1))
	for name, tab := range map[string]Table{"short row": short, "NaN": nan, "infinite interval": inf} {
		if err := tab.check(); err == nil {
			t.Errorf("%s: check passed", name)
		}
	}
	if err := sample().check(); err != nil {
		t.Errorf("a good table: %v", err)
	}
}

func TestGroup(t *testing.T) {
	t.Parallel()
	for in, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1917012: "1,917,012", 10_000_000: "10,000,000", -1234: "-1,234"} {
		if got := group(in); got != want {
			t.Errorf("group(%d) = %q, want %q", in, got, want)
		}
	}
}
