//go:build !unix

package program

import "os/exec"

func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process; where there are no process groups, its
// children are its own to end.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
