package builtin

import "syscall"

// dieWithParent asks the kernel to kill the command's shell if the bot
// itself dies (a crash, SIGKILL), so an unconfined command does not keep
// running in a thread's workspace with nobody watching it. A shell that
// execs its last command passes the signal on; the bubblewrap sandbox
// covers whole process trees with --die-with-parent.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
