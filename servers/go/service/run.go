package service

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// shutdownGrace is how long in-flight requests get after SIGTERM. The
// benchmark runner stops servers between trials and must not wait on a
// 10-second /time request or a stalled upload.
const shutdownGrace = 2 * time.Second

// Main starts a server the same way for every framework: read the
// environment, listen, print the readiness line, serve until SIGTERM or
// SIGINT, then shut down. serve is the framework's Serve(net.Listener);
// shutdown stops it, giving in-flight requests until the context ends.
// Main exits the process on any start-up error, with a message that says
// what to fix.
func Main(id string, serve func(net.Listener) error, shutdown func(context.Context) error) {
	if err := run(id, serve, shutdown); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", id, err)
		os.Exit(1)
	}
}

func run(id string, serve func(net.Listener) error, shutdown func(context.Context) error) error {
	cfg, err := LoadConfig(id, os.Getenv)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr())
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another server using the port? pick another PORT)", cfg.Addr(), err)
	}
	if cfg.Backlog > 0 {
		if err := setBacklog(ln, cfg.Backlog); err != nil {
			ln.Close()
			return fmt.Errorf("BACKLOG=%d: %w", cfg.Backlog, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	served := make(chan error, 1)
	go func() { served <- serve(ln) }()
	cfg.Ready(os.Stdout, ln.Addr())

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	// A shutdown that runs out of grace leaves connections open; the process
	// exits right after, which closes them.
	_ = shutdown(sctx)
	return nil
}

// setBacklog resizes the accept queue of the listening socket ln. Go's
// net.Listen passes net.core.somaxconn to listen(2) and offers no setting;
// Linux lets listen(2) be called again on a listening socket, which only
// changes the queue's size (still capped by net.core.somaxconn).
func setBacklog(ln net.Listener, backlog int) error {
	raw, err := ln.(*net.TCPListener).SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := raw.Control(func(fd uintptr) { lerr = syscall.Listen(int(fd), backlog) }); err != nil {
		return err
	}
	return lerr
}
