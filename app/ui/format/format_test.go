package format

import "testing"

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want string }{
		{Int(40000), "40,000"}, {Int(999), "999"}, {Int(1000), "1,000"}, {Int(1234567), "1,234,567"},
		{Rate(0.008194), "0.008194"}, {Rate(0), "0"}, {Rate(0.1), "0.1"}, {Rate(0.00005), "5.0e-05"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
