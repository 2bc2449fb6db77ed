package cpu

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// qosTarget reads the latency every CPU is held to now: the device answers a
// read with the aggregate request as a binary s32 (2000000000 µs: none).
func qosTarget(t *testing.T) int32 {
	t.Helper()
	f, err := os.Open(QoSDevice)
	if err != nil {
		t.Skipf("cannot read %s: %v", QoSDevice, err)
	}
	defer f.Close()
	var b [4]byte
	if _, err := f.Read(b[:]); err != nil {
		t.Skipf("read %s: %v", QoSDevice, err)
	}
	return int32(binary.NativeEndian.Uint32(b[:]))
}

func TestHoldPollIdle(t *testing.T) {
	if f, err := os.OpenFile(QoSDevice, os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot hold %s here (%v): the machine's idle states stay", QoSDevice, err)
	} else {
		f.Close()
	}
	release, state := HoldPollIdle()
	if !strings.HasPrefix(state, IdlePoll+" (") || ModeOf(state) != IdlePoll {
		release()
		t.Fatalf("state = %q (mode %q), want it to start with %q", state, ModeOf(state), IdlePoll+" (")
	}
	if got := qosTarget(t); got != 0 {
		release()
		t.Fatalf("while held, %s reads %d µs, want 0", QoSDevice, got)
	}
	release()
	// Not checked after release: another package's test (a runner) may
	// hold the device at the same time.
}

func TestHoldPollIdleWithoutDevice(t *testing.T) {
	old := QoSDevice
	QoSDevice = filepath.Join(t.TempDir(), "no-such-device")
	defer func() { QoSDevice = old }()
	release, state := HoldPollIdle()
	release() // a no-op, and callable
	for _, want := range []string{IdleDefault + " (", "could not hold " + QoSDevice, "no such file"} {
		if !strings.Contains(state, want) {
			t.Errorf("state = %q, want it to say %q", state, want)
		}
	}
	if d := DefaultIdle(); !strings.HasPrefix(d, IdleDefault+" (") || !strings.Contains(d, "not held") {
		t.Errorf("DefaultIdle() = %q", d)
	}
	for _, s := range []string{state, DefaultIdle()} {
		if m := ModeOf(s); m != IdleDefault {
			t.Errorf("ModeOf(%q) = %q, want %q", s, m, IdleDefault)
		}
	}
	if m := ModeOf(""); m != "" {
		t.Errorf("ModeOf(\"\") = %q, want \"\"", m)
	}
}
