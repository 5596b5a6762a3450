package plan

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestMeasureTables: the tables are what Measure, Cheapest and CheapestFor
// give; the step sees every structure counted once, in order, up to the
// total; and a step's error stops the work where it was returned.
func TestMeasureTables(t *testing.T) {
	t.Parallel()
	pl, err := Solve(Input{Find: FindM, N: 500_000, P: 1.0 / 256})
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	total := 0
	got, err := MeasureTables(pl, func(done, all int) error {
		if len(seen) == 0 || seen[len(seen)-1] != done {
			seen = append(seen, done)
		}
		total = all
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cheapest := Cheapest(pl.N, pl.P)
	want := Tables{Measured: Measure(pl), Cheapest: cheapest, CheapestFor: CheapestFor(cheapest)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MeasureTables differs from Measure, Cheapest and CheapestFor:\n%+v\n%+v", got, want)
	}
	if total != len(pl.Alternatives)+len(cheapest) || len(seen) == 0 || seen[len(seen)-1] != total {
		t.Fatalf("the step saw %v of %d, want every structure up to %d", seen, total, len(pl.Alternatives)+len(cheapest))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] != seen[i-1]+1 && !(i == 1 && seen[0] == 0) {
			t.Errorf("the step's counts %v skip or go back", seen)
			break
		}
	}

	stop := errors.New("stop")
	calls, last := 0, 0
	_, err = MeasureTables(pl, func(done, all int) error {
		calls++
		last = done
		if done == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || last != 3 {
		t.Errorf("a step that stops at 3 structures: error %v after %d calls, the last at %d", err, calls, last)
	}
}

// TestShapeAndTablesTravel: a plan's shape, and its tables, come back from
// JSON whole, as they go to a worker and back: the shape's plan has the
// same alternatives (the filters they build included), and the tables the
// same sizes, Specs included.
func TestShapeAndTablesTravel(t *testing.T) {
	t.Parallel()
	for _, in := range []Input{
		{Find: FindM, N: 100_000_000, P: 0.01},
		{Find: FindP, N: 4000, M: 40000},
		{Find: FindN, M: 958_505_838, P: 0.05},
		{Find: FindM, N: 1000, P: 0.001, K: 3},
	} {
		pl, err := Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(pl.Shape())
		if err != nil {
			t.Fatal(err)
		}
		var s Shape
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if back := s.Plan(); !reflect.DeepEqual(back.Alternatives, pl.Alternatives) || back.N != pl.N || back.P != pl.P {
			t.Errorf("%+v: the shape %s gives other alternatives than the plan's", in, b)
		}
		tables, err := MeasureTables(pl, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = json.Marshal(tables); err != nil {
			t.Fatal(err)
		}
		var got Tables
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tables) {
			t.Errorf("%+v: the tables changed on their way through JSON:\n%+v\n%+v", in, got, tables)
		}
	}
}
