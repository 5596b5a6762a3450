//go:build race

package auditcli

func init() { underRace = true }
