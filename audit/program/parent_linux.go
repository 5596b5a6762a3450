package program

import "syscall"

// dieWithParent asks Linux to kill the program when the audit's thread
// that started it ends: a second Ctrl-C kills the audit at once, and the
// program must not outlive it.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
