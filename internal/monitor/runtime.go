package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"restbench/internal/result"
)

// runtimeTimeout bounds ArmRuntime's GET /runtime: a server just started
// may still be compiling.
const runtimeTimeout = 10 * time.Second

// lastTimeout bounds the reading taken at Stop: the load has ended, so a
// server that cannot answer by then is hung, and the trial does not wait on
// it longer.
const lastTimeout = 2 * time.Second

// ReadRuntime asks the server's GET /runtime (docs/contract.md) once, at
// Stop, through rt (server.Process.Transport, which reaches a server in a
// network namespace too; nil: http.DefaultTransport). The server's
// histograms and GC totals count from its previous answer, ArmRuntime's
// before the trial's load, so the reading covers the whole load: prewarm,
// warm-up and window.
//
// Once, after the load, not every 250 ms of it: each answer goes through the
// server's own HTTP stack and costs a Node server far more than its own
// work. Asked every 250 ms, node-http lost 10 % of its req/s at full speed
// (dotchev's echo: 15.5k against 17.2k without, interleaved) and
// node-fastify 26 % at a 0.5-CPU quota (hello: 7.9k against 10.65k); a
// single reading as the window opened still cost node-fastify 16 % (8.9k);
// Go's net/http lost 4 % (docs/benchmarks.md, "The monitor's cost").
func (m *Monitor) ReadRuntime(url string, rt http.RoundTripper) {
	m.polls.Add(1)
	go func() {
		defer m.polls.Done()
		<-m.stop
		ctx, cancel := context.WithTimeout(context.Background(), lastTimeout)
		defer cancel()
		r, err := readRuntime(ctx, url, rt)
		if err != nil {
			m.mu.Lock()
			m.runtimeErr = err.Error()
			m.mu.Unlock()
			return
		}
		r.T = max(0, time.Since(m.zero).Seconds())
		m.mu.Lock()
		m.runtime = append(m.runtime, r)
		m.mu.Unlock()
	}()
}

// ArmRuntime asks the server's GET /runtime once and drops the answer:
// the server's first answer turns on what it observes of itself (Node: an
// event-loop delay timer, a GC observer) and starts the counts that
// ReadRuntime's reading at Stop covers. Turning them on, like any answer,
// costs a Node server more than its own work (under hello's 0.5-CPU quota,
// node-fastify at 11.4k req/s served 4.7-7.9k in the 2-4 s after it, in 4
// tries of 4), so the runner arms it before any load, where the prewarm and
// warm-up absorb it. A server without the endpoint is no error:
// ReadRuntime finds that out again.
func ArmRuntime(ctx context.Context, url string, rt http.RoundTripper) error {
	ctx, cancel := context.WithTimeout(ctx, runtimeTimeout)
	defer cancel()
	_, err := readRuntime(ctx, url, rt)
	if _, ok := err.(notServed); ok {
		return nil
	}
	return err
}

// notServed: the server has no /runtime.
type notServed struct{ status int }

func (e notServed) Error() string {
	return fmt.Sprintf("GET /runtime: status %d (the server does not serve it)", e.status)
}

// readRuntime asks GET url once through rt, on a connection it closes after.
func readRuntime(ctx context.Context, url string, rt http.RoundTripper) (result.RuntimeSample, error) {
	client := &http.Client{Transport: rt}
	defer client.CloseIdleConnections()
	var r result.RuntimeSample
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return r, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return r, notServed{resp.StatusCode}
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return r, fmt.Errorf("GET /runtime: %w", err)
	}
	return r, nil
}
