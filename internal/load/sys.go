package load

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The loop calls read and write through RawSyscall: they cannot block (the
// sockets are non-blocking), so the runtime's entersyscall/exitsyscall
// bookkeeping would be pure overhead. The wait in epoll can block; a
// blocking call announced with Syscall makes the runtime's sysmon take the
// loop's P away and hand it to another thread, waking threads with futexes
// thousands of times a second: a tenth of the generator's CPU. So Run gives
// every loop a P of its own (reserveProcs) and the wait is raw too, bounded
// to 10 ms so that the loop still notices Ctrl-C and lets a GC stop the
// world in time.

func rawRead(fd int, p []byte) (int, unix.Errno) {
	r, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(r), e
}

func rawWrite(fd int, p []byte) (int, unix.Errno) {
	r, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(r), e
}

// epollPwait2 waits for events for at most ts (zero: poll).
func epollPwait2(epfd int, events []unix.EpollEvent, ts *unix.Timespec) (int, unix.Errno) {
	r, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT2, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), uintptr(unsafe.Pointer(ts)), 0, 0)
	return int(r), e
}

// epollPwait waits for events for at most msec milliseconds (epoll_wait
// itself is missing on arm64).
func epollPwait(epfd int, events []unix.EpollEvent, msec int) (int, unix.Errno) {
	r, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])),
		uintptr(len(events)), uintptr(msec), 0, 0)
	return int(r), e
}

// reserveProcs makes sure loops event loops each hold a P with one left
// for everything else, so that they may block in raw system calls; it
// returns what restores GOMAXPROCS. GOMAXPROCS counts Ps, not CPUs: raising
// it does not let the generator use more CPU than its affinity allows.
func reserveProcs(loops int) (restore func()) {
	procs := runtime.GOMAXPROCS(0)
	if procs > loops {
		return func() {}
	}
	runtime.GOMAXPROCS(loops + 1)
	return func() { runtime.GOMAXPROCS(procs) }
}
