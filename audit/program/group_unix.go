//go:build unix

package program

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that the audit can
// end it with every process it started (a shell script's node, say), and
// where the system can (Linux), has it killed if the audit itself dies.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
