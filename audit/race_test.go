//go:build race

package audit

func init() { underRace = true }
