package experiment

import (
	"fmt"
	"testing"
)

// TestCountingHotName holds the hot key's row name, written out so that
// nothing runs at the program's start, to the constants of its story.
func TestCountingHotName(t *testing.T) {
	hot := countingScenarios[len(countingScenarios)-1]
	if want := fmt.Sprintf("hot key inserted %dx, rolled back %dx", hotInserts, hotRollbacks); hot.name != want || hot.passes != 0 {
		t.Errorf("the hot key's row is %q (passes %d), want %q (passes 0)", hot.name, hot.passes, want)
	}
}
