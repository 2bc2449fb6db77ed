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

// runtimeTimeout bounds one GET /runtime. It is long on purpose: a Node
// server whose event loop is blocked answers late, and that reading (whose
// delay histogram covers the blockage) is the one that matters. Readings
// follow one another, so a late one delays the next instead of piling up.
const runtimeTimeout = 10 * time.Second

// PollRuntime asks the server's GET /runtime (docs/contract.md) every
// interval until Stop, through rt (server.Process.Transport, which reaches
// a server in a network namespace too; nil: http.DefaultTransport), and
// keeps each answer with its time. A server that answers anything but 200
// (an implementation without the endpoint) is not asked again.
func (m *Monitor) PollRuntime(url string, rt http.RoundTripper) {
	m.polls.Add(1)
	go func() {
		defer m.polls.Done()
		client := &http.Client{Transport: rt, Timeout: runtimeTimeout}
		defer client.CloseIdleConnections()
		tick := time.NewTicker(m.interval)
		defer tick.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-tick.C:
			}
			r, err := readRuntime(m.ctx, client, url)
			if err != nil {
				if m.ctx.Err() != nil {
					return
				}
				m.mu.Lock()
				m.runtimeErr = err.Error()
				m.mu.Unlock()
				if _, ok := err.(notServed); ok {
					return
				}
				continue
			}
			now := time.Now()
			if r.T = now.Sub(m.zero).Seconds(); r.T < 0 {
				continue // the warm-up
			}
			m.mu.Lock()
			m.runtime = append(m.runtime, r)
			m.mu.Unlock()
		}
	}()
}

// notServed: the server has no /runtime.
type notServed struct{ status int }

func (e notServed) Error() string {
	return fmt.Sprintf("GET /runtime: status %d (the server does not serve it)", e.status)
}

func readRuntime(ctx context.Context, client *http.Client, url string) (result.RuntimeSample, error) {
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
