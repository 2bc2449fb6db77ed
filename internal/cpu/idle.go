package cpu

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
)

// QoSDevice is the kernel's CPU wake-up latency request (PM QoS,
// Documentation/power/pm_qos_interface.rst): a process that writes a
// latency in µs and keeps the file open holds every CPU to idle states
// that wake within it; closing the file drops the request.
var QoSDevice = "/dev/cpu_dma_latency"

// Idle modes of a run (runner.Options.Idle, restbench run --idle).
const (
	IdlePoll    = "poll"    // hold QoSDevice at 0 µs while the suite runs
	IdleDefault = "default" // the idle states as the machine sets them
)

// HoldPollIdle asks for a wake-up latency of 0 µs until release is called:
// cpuidle then keeps an idle CPU in its polling state instead of halting it,
// as tuned's latency-performance profile does (force_latency). Why: on a
// VM a halted vCPU is descheduled by the hypervisor and woken by an
// interrupt through it, and every request crosses from the generator's CPU
// to the server's and back. On this project's 2-vCPU Firecracker VMs
// (cpuidle haltpoll, guest_halt_poll_ns=0) a one-byte pipe ping-pong
// between the two CPUs ran 4,500 round trips per 250 ms (±30 %) halting and
// 23,000 (±10 %) polling, and dotchev's node-http served 2.3-14k req/s
// halting against 10-14k polling within one hour (docs/benchmarks.md).
//
// state says what is in force, for env.json: "poll (...)" while held, or
// "default (...): why not" when the device cannot be held (not root, no
// such device): the run goes on with the machine's idle states.
func HoldPollIdle() (release func(), state string) {
	driver := idleDriver()
	f, err := os.OpenFile(QoSDevice, os.O_WRONLY, 0)
	if err == nil {
		// The device takes the latency as a binary s32 (or as hex text).
		var b [4]byte
		binary.NativeEndian.PutUint32(b[:], 0)
		if _, err = f.Write(b[:]); err != nil {
			f.Close()
		}
	}
	if err != nil {
		return func() {}, fmt.Sprintf("%s (%s): could not hold %s at 0 µs: %v; run as root for polling idle", IdleDefault, driver, QoSDevice, err)
	}
	return func() { f.Close() }, fmt.Sprintf("%s (%s held at 0 µs; %s)", IdlePoll, QoSDevice, driver)
}

// ModeOf is the mode a state of HoldPollIdle or DefaultIdle (env.json's
// idle) names: IdlePoll, IdleDefault, or "" for an empty state.
func ModeOf(state string) string {
	mode, _, _ := strings.Cut(state, " ")
	return mode
}

// DefaultIdle is the state of a run that does not hold the device.
func DefaultIdle() string {
	return fmt.Sprintf("%s (%s; %s not held)", IdleDefault, idleDriver(), QoSDevice)
}

// idleDriver names the cpuidle driver and governor ("cpuidle haltpoll/haltpoll"),
// or says there is none (a container without sysfs, a kernel without
// cpuidle: the CPU halts as its architecture does).
func idleDriver() string {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	d := read("/sys/devices/system/cpu/cpuidle/current_driver")
	if d == "" || d == "none" {
		return "no cpuidle driver"
	}
	if g := read("/sys/devices/system/cpu/cpuidle/current_governor"); g != "" {
		d += "/" + g
	}
	return "cpuidle " + d
}
