package experiment

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Kind says how a column's cells print and export.
type Kind string

const (
	Text     Kind = "text"     // a label
	Int      Kind = "int"      // a count
	Float    Kind = "float"    // a number at Decimals places
	Interval Kind = "interval" // [Value, High] at Decimals places
)

// Column describes one column: Key names it in CSV and JSON, Title heads it
// in the text table. Percent columns print rates times 100 with a % sign and
// export the rate itself.
type Column struct {
	Key      string `json:"key"`
	Title    string `json:"title"`
	Kind     Kind   `json:"kind"`
	Decimals int    `json:"decimals,omitempty"`
	Percent  bool   `json:"percent,omitempty"`
}

// Cell is one value. Missing cells print as "-" and export as null or empty.
type Cell struct {
	Text    string
	Value   float64
	High    float64
	Missing bool
}

// Constructors for cells, short because tables are written row by row.
func txt(s string) Cell                { return Cell{Text: s} }
func num(v float64) Cell               { return Cell{Value: v} }
func count[T ~int | ~uint64](v T) Cell { return Cell{Value: float64(v)} }
func interval(lo, hi float64) Cell     { return Cell{Value: lo, High: hi} }
func missing() Cell                    { return Cell{Missing: true} }

// ratio returns a/b, or a missing cell when b is 0.
func ratio(a, b float64) Cell {
	if b == 0 {
		return missing()
	}
	return num(a / b)
}

// Table is an experiment's result: columns, rows, notes and a chart.
type Table struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Sizes   Sizes    `json:"sizes"`
	Columns []Column `json:"columns"`
	Rows    [][]Cell `json:"rows"`
	Notes   []string `json:"notes,omitempty"`
	Chart   *Chart   `json:"chart,omitempty"`
}

// Chart is what a page needs to draw a table's figure: axes and series. A
// series is either a line (theory, drawn through its points) or points
// (measurements, each with its interval [Lo, Hi]).
type Chart struct {
	Title string `json:"title"`
	X     string `json:"x"`
	Y     string `json:"y"`
	LogX  bool   `json:"logX,omitempty"`
	LogY  bool   `json:"logY,omitempty"`
	// XLabels, when set, names categories: point X is an index into it.
	XLabels []string `json:"xLabels,omitempty"`
	Series  []Series `json:"series"`
}

// Series kinds.
const (
	Line   = "line"
	Points = "points"
)

// Series is one curve or set of measured points.
type Series struct {
	Name   string  `json:"name"`
	Kind   string  `json:"kind"`
	Points []Point `json:"points"`
}

// Point is one (x, y), with an interval for measured points.
type Point struct {
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
	Lo float64 `json:"lo,omitempty"`
	Hi float64 `json:"hi,omitempty"`
}

// Column returns the index of the column keyed key, or -1.
func (t Table) Column(key string) int {
	for i, c := range t.Columns {
		if c.Key == key {
			return i
		}
	}
	return -1
}

// Format returns a cell as the text table prints it.
func (c Column) Format(v Cell) string {
	if v.Missing {
		return "-"
	}
	switch c.Kind {
	case Text:
		return v.Text
	case Int:
		return strconv.FormatFloat(v.Value, 'f', 0, 64)
	case Interval:
		return "[" + c.number(v.Value) + "," + c.number(v.High) + "]"
	}
	return c.number(v.Value)
}

func (c Column) number(x float64) string {
	if c.Percent {
		return strconv.FormatFloat(100*x, 'f', c.Decimals, 64) + "%"
	}
	return strconv.FormatFloat(x, 'f', c.Decimals, 64)
}

// WriteText prints the title, the columns aligned (text left, numbers
// right) and the notes.
func (t Table) WriteText(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(t.Title + "\n\n")
	cells := make([][]string, len(t.Rows)+1)
	width := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		cells[0] = append(cells[0], c.Title)
		width[i] = len(c.Title)
	}
	for r, row := range t.Rows {
		for i, c := range t.Columns {
			s := c.Format(row[i])
			cells[r+1] = append(cells[r+1], s)
			width[i] = max(width[i], len(s))
		}
	}
	for _, line := range cells {
		var l strings.Builder
		for i, s := range line {
			pad := strings.Repeat(" ", width[i]-len(s))
			if i > 0 {
				l.WriteString("  ")
			}
			if t.Columns[i].Kind == Text {
				l.WriteString(s + pad)
			} else {
				l.WriteString(pad + s)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString(n + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// export returns a cell as CSV and JSON carry it: full precision, rates as
// rates.
func export(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteCSV writes a header of column keys and one record a row; an interval
// takes two columns, KEY_lo and KEY_hi.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var head []string
	for _, c := range t.Columns {
		if c.Kind == Interval {
			head = append(head, c.Key+"_lo", c.Key+"_hi")
			continue
		}
		head = append(head, c.Key)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, row := range t.Rows {
		var rec []string
		for i, c := range t.Columns {
			v := row[i]
			switch {
			case c.Kind == Interval && v.Missing:
				rec = append(rec, "", "")
			case c.Kind == Interval:
				rec = append(rec, export(v.Value), export(v.High))
			case v.Missing:
				rec = append(rec, "")
			case c.Kind == Text:
				rec = append(rec, v.Text)
			default:
				rec = append(rec, export(v.Value))
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// MarshalJSON writes each row as an object keyed by column key: text as a
// string, numbers as numbers, intervals as [lo, hi], missing cells as null.
func (t Table) MarshalJSON() ([]byte, error) {
	rows := make([]map[string]any, len(t.Rows))
	for r, row := range t.Rows {
		obj := make(map[string]any, len(t.Columns))
		for i, c := range t.Columns {
			v := row[i]
			switch {
			case v.Missing:
				obj[c.Key] = nil
			case c.Kind == Text:
				obj[c.Key] = v.Text
			case c.Kind == Interval:
				obj[c.Key] = []json.Number{json.Number(export(v.Value)), json.Number(export(v.High))}
			default:
				obj[c.Key] = json.Number(export(v.Value))
			}
		}
		rows[r] = obj
	}
	type plain Table // without this method
	return json.Marshal(struct {
		plain
		Rows []map[string]any `json:"rows"`
	}{plain(t), rows})
}

// check reports a malformed table: a row of the wrong width or a value that
// JSON cannot carry. Experiments call it before returning.
func (t Table) check() error {
	for r, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("experiment: %s row %d has %d cells for %d columns", t.Name, r, len(row), len(t.Columns))
		}
		for i, v := range row {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) || math.IsNaN(v.High) || math.IsInf(v.High, 0) {
				return fmt.Errorf("experiment: %s row %d column %s is not a finite number", t.Name, r, t.Columns[i].Key)
			}
		}
	}
	return nil
}
