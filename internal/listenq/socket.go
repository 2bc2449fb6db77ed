package listenq

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// Socket is one listening TCP socket as sock_diag reports it (what `ss
// -ltnm` prints): Recv-Q, Send-Q and skmem's d.
type Socket struct {
	Port    int
	Queue   int   // connections waiting in the accept queue now
	Backlog int   // the accept queue's size: listen()'s backlog capped by net.core.somaxconn
	Drops   int64 // connection requests this socket dropped (sk_drops), its overflows among them
}

// Queued is what socks hold: the connections waiting in their accept
// queues, and the smallest of the queues' sizes (0 with no socket).
func Queued(socks []Socket) (queued, backlog int) {
	for _, s := range socks {
		queued += s.Queue
		if backlog == 0 || s.Backlog < backlog {
			backlog = s.Backlog
		}
	}
	return queued, backlog
}

// Listeners returns the TCP sockets (IPv4 and IPv6) listening on port in
// pid's network namespace; pid 0 means restbench's own. Joining another
// namespace needs CAP_SYS_ADMIN, which placement hosts has already.
func Listeners(pid, port int) ([]Socket, error) {
	var socks []Socket
	err := inNetns(pid, func() error {
		for _, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
			s, err := dumpListeners(family)
			if err != nil {
				return err
			}
			for _, x := range s {
				if x.Port == port {
					socks = append(socks, x)
				}
			}
		}
		return nil
	})
	return socks, err
}

// inNetns runs f in pid's network namespace, on a thread that joins it and
// goes back to its own namespace before it is released. Should it fail to
// go back, the thread stays locked and ends with the goroutine, rather than
// return to Go's pool in the wrong namespace.
func inNetns(pid int, f func() error) error {
	if pid == 0 || sameNetns(pid) {
		return f()
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
		if err != nil {
			runtime.UnlockOSThread()
			done <- err
			return
		}
		defer self.Close()
		target, err := os.Open(fmt.Sprintf("/proc/%d/ns/net", pid))
		if err != nil {
			runtime.UnlockOSThread()
			done <- err
			return
		}
		defer target.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("join the network namespace of pid %d: %w", pid, err)
			return
		}
		err = f()
		if unix.Setns(int(self.Fd()), unix.CLONE_NEWNET) == nil {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

func sameNetns(pid int) bool {
	var a, b unix.Stat_t
	if unix.Stat("/proc/self/ns/net", &a) != nil || unix.Stat(fmt.Sprintf("/proc/%d/ns/net", pid), &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}

// The kernel's sock_diag structures (linux/inet_diag.h, linux/sock_diag.h).
const (
	sizeofReq       = 56 // struct inet_diag_req_v2
	sizeofMsg       = 72 // struct inet_diag_msg
	tcpListen       = 10 // TCP_LISTEN
	diagSkmeminfo   = 7  // INET_DIAG_SKMEMINFO: u32[SK_MEMINFO_VARS]
	offsetQueue     = 56 // inet_diag_msg.idiag_rqueue: the accept queue's length for a listener
	offsetBacklog   = 60 // inet_diag_msg.idiag_wqueue: sk_max_ack_backlog for a listener
	offsetSportDiag = 4  // inet_diag_msg.id.idiag_sport, big-endian
)

// dumpListeners asks the kernel for every listening TCP socket of family
// in this thread's network namespace.
func dumpListeners(family uint8) ([]Socket, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag netlink socket: %w", err)
	}
	defer unix.Close(fd)
	req := make([]byte, unix.SizeofNlMsghdr+sizeofReq)
	ne := binary.NativeEndian
	ne.PutUint32(req[0:], uint32(len(req)))
	ne.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	ne.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	ne.PutUint32(req[8:], 1) // sequence number
	body := req[unix.SizeofNlMsghdr:]
	body[0], body[1], body[2] = family, unix.IPPROTO_TCP, 1<<(diagSkmeminfo-1)
	ne.PutUint32(body[4:], 1<<tcpListen)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("sock_diag request: %w", err)
	}
	var socks []Socket
	buf := make([]byte, 64<<10)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return nil, fmt.Errorf("sock_diag answer: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return nil, fmt.Errorf("sock_diag answer: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_DONE:
				return socks, nil
			case unix.NLMSG_ERROR:
				if len(m.Data) >= 4 {
					if errno := int32(ne.Uint32(m.Data)); errno != 0 {
						return nil, fmt.Errorf("sock_diag: %w", syscall.Errno(-errno))
					}
				}
				return nil, errors.New("sock_diag: error message")
			}
			s, ok := parseMsg(m.Data)
			if ok {
				socks = append(socks, s)
			}
		}
	}
}

// parseMsg reads one inet_diag_msg and its attributes.
func parseMsg(d []byte) (Socket, bool) {
	if len(d) < sizeofMsg || d[1] != tcpListen {
		return Socket{}, false
	}
	ne := binary.NativeEndian
	s := Socket{
		Port:    int(binary.BigEndian.Uint16(d[offsetSportDiag:])),
		Queue:   int(ne.Uint32(d[offsetQueue:])),
		Backlog: int(ne.Uint32(d[offsetBacklog:])),
		Drops:   -1,
	}
	// struct rtattr {u16 len; u16 type} and its value, each 4-byte aligned.
	for a := d[sizeofMsg:]; len(a) >= 4; {
		l, typ := int(ne.Uint16(a)), ne.Uint16(a[2:])
		if l < 4 || l > len(a) {
			break
		}
		if typ == diagSkmeminfo && l >= 4+4*(unix.SK_MEMINFO_DROPS+1) {
			s.Drops = int64(ne.Uint32(a[4+4*unix.SK_MEMINFO_DROPS:]))
		}
		a = a[min((l+3)&^3, len(a)):]
	}
	return s, true
}
