// Package hosts runs one suite cell the way a cluster does (internal/k8s),
// on one machine: network namespaces stand in for hosts. The server runs in
// a namespace of its own and each generator in another, all joined by a
// bridge, and every generator runs exactly the command and environment of
// its Indexed Job pod. Their results are merged as the collector merges
// them.
//
// The namespaces share a private /24 (Subnet) that exists only inside them:
// the bridge lives in a namespace of its own too, with no address, and the
// machine's own namespace gets neither an interface nor a route into the
// subnet. No load can leave the namespaces, and no address of the machine's
// networks can be hit by mistake.
package hosts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Subnet is the private /24 inside the namespaces: the server is .1, the
// generators .2, .3, ...
const Subnet = "10.77.0"

// Host is one network namespace with its address.
type Host struct {
	NS   string // name under /run/netns
	Addr string // its address in Subnet
}

// Net is a server host and generator hosts on one bridge.
type Net struct {
	Server     Host
	Generators []Host
	bridge     string // the namespace holding the bridge
	made       []string
}

// Available says why namespaces cannot be made here, or nil.
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("network namespaces need root (run as root, or in a container with CAP_SYS_ADMIN and CAP_NET_ADMIN)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return errors.New("`ip` is not installed (apt-get install iproute2)")
	}
	// Root in a container may still lack CAP_SYS_ADMIN: try one.
	probe := fmt.Sprintf("rb-probe-%d", os.Getpid())
	if out, err := exec.Command("ip", "netns", "add", probe).CombinedOutput(); err != nil {
		return fmt.Errorf("`ip netns add` does not work here: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return ip("netns", "del", probe)
}

// New makes a server namespace and generators generator namespaces with
// unique names, joined by a bridge. On error it removes what it made.
func New(generators int) (n *Net, err error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if generators < 1 || generators > 200 {
		return nil, fmt.Errorf("%d generator hosts: give 1 to 200", generators)
	}
	b := make([]byte, 3)
	rand.Read(b)
	id := fmt.Sprintf("rb-%d-%s", os.Getpid(), hex.EncodeToString(b))
	n = &Net{bridge: id + "-sw"}
	defer func() {
		if err != nil {
			n.Close()
			n = nil
		}
	}()
	if err := n.addNS(n.bridge); err != nil {
		return nil, err
	}
	if err := ip("-n", n.bridge, "link", "add", "br0", "type", "bridge"); err != nil {
		return nil, err
	}
	if err := ip("-n", n.bridge, "link", "set", "br0", "up"); err != nil {
		return nil, err
	}
	hosts := make([]Host, generators+1)
	for i := range hosts {
		hosts[i] = Host{NS: fmt.Sprintf("%s-h%d", id, i), Addr: fmt.Sprintf("%s.%d", Subnet, i+1)}
		if err := n.addHost(hosts[i], i); err != nil {
			return nil, err
		}
	}
	n.Server, n.Generators = hosts[0], hosts[1:]
	return n, nil
}

func (n *Net) addNS(name string) error {
	if err := ip("netns", "add", name); err != nil {
		return err
	}
	n.made = append(n.made, name)
	return ip("-n", name, "link", "set", "lo", "up")
}

// addHost: a veth pair, one end on the bridge, the other the host's eth0.
func (n *Net) addHost(h Host, i int) error {
	if err := n.addNS(h.NS); err != nil {
		return err
	}
	port := fmt.Sprintf("p%d", i)
	for _, args := range [][]string{
		{"-n", n.bridge, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", h.NS},
		{"-n", n.bridge, "link", "set", port, "master", "br0", "up"},
		{"-n", h.NS, "addr", "add", h.Addr + "/24", "dev", "eth0"},
		{"-n", h.NS, "link", "set", "eth0", "up"},
	} {
		if err := ip(args...); err != nil {
			return err
		}
	}
	return nil
}

// Close removes every namespace New made (their interfaces go with them).
func (n *Net) Close() error {
	var errs []error
	for i := len(n.made) - 1; i >= 0; i-- {
		if err := ip("netns", "del", n.made[i]); err != nil {
			errs = append(errs, err)
		}
	}
	n.made = nil
	return errors.Join(errs...)
}

// Command runs argv inside h's namespace, in dir, with exactly env.
func (h Host) Command(ctx context.Context, dir string, env []string, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", h.NS}, argv...)...)
	cmd.Dir, cmd.Env = dir, env
	return cmd
}

// DialContext connects to addr from inside h's namespace: it is how
// restbench's own requests (the readiness probe, the monitor's GET /runtime)
// reach a server that nothing outside the namespaces can reach, as the
// Dial of an http.Transport. The socket is made on a thread that has joined
// the namespace and goes back to its own before the thread is released; the
// connection stays in the namespace it was made in. Should the thread fail
// to go back, it stays locked and ends with the goroutine, rather than go
// back to Go's pool in the wrong namespace. (Threads must not end
// needlessly: a child started with Pdeathsig dies with the thread that
// started it.)
func (h Host) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	type dialed struct {
		conn net.Conn
		err  error
	}
	ch := make(chan dialed, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
		if err != nil {
			ch <- dialed{err: err}
			return
		}
		defer self.Close()
		f, err := os.Open("/run/netns/" + h.NS)
		if err != nil {
			runtime.UnlockOSThread()
			ch <- dialed{err: err}
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			ch <- dialed{err: fmt.Errorf("join %s: %w", h.NS, err)}
			return
		}
		// addr is an address, not a name: the dial runs on this thread,
		// with no resolver of its own that could open a socket elsewhere.
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, addr)
		if unix.Setns(int(self.Fd()), unix.CLONE_NEWNET) == nil {
			runtime.UnlockOSThread()
		}
		ch <- dialed{conn, err}
	}()
	d := <-ch
	return d.conn, d.err
}

func ip(args ...string) error {
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
