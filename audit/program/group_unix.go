//go:build unix

package program

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that the audit can
// end it with every process it started (a shell script's node, say).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
