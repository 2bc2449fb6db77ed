package load

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The loop calls read and write through RawSyscall: they cannot block (the
// sockets are non-blocking), so the runtime's entersyscall/exitsyscall
// bookkeeping would be pure overhead. The wait in epoll can block; a
// blocking call announced with Syscall makes the runtime's sysmon take the
// loop's P away and hand it to another thread, waking threads with futexes
// thousands of times a second: a tenth of the generator's CPU. So when Run
// can give every loop a P of its own (runner.ownP: GOMAXPROCS exceeds the
// number of loops, leaving a P for everything else) the wait is raw too,
// bounded to 10 ms so that the loop still notices Ctrl-C and lets a GC
// stop the world in time; otherwise the loop polls raw and blocks through
// Syscall.

func rawRead(fd int, p []byte) (int, unix.Errno) {
	r, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(r), e
}

func rawWrite(fd int, p []byte) (int, unix.Errno) {
	r, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(r), e
}

// epollPwait2 waits for events for at most ts (nil: forever, zero: poll).
func epollPwait2(epfd int, events []unix.EpollEvent, ts *unix.Timespec, block bool) (int, unix.Errno) {
	call := unix.RawSyscall6
	if block {
		call = unix.Syscall6
	}
	r, _, e := call(unix.SYS_EPOLL_PWAIT2, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), uintptr(unsafe.Pointer(ts)), 0, 0)
	return int(r), e
}
