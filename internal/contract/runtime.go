package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// checkRuntime asks the optional GET /runtime (docs/contract.md): a server
// without it gets an INFO row, one with it must answer JSON that names its
// runtime and carries its language's figures, or says which are not
// available there.
func checkRuntime(ctx context.Context, t *Target) (string, error) {
	r, err := t.call(ctx, "GET", "/runtime", nil)
	if err != nil {
		return "", err
	}
	if r.status == http.StatusNotFound {
		return "", info("not served (optional: the monitor then records runtime_error)")
	}
	if err := expectStatus(r, 200); err != nil {
		return "", err
	}
	if err := expectJSONType(r); err != nil {
		return "", err
	}
	var got map[string]any
	if err := json.Unmarshal(r.body, &got); err != nil {
		return "", fmt.Errorf("body %s is not a JSON object: %v", clip(r.body), err)
	}
	name, _ := got["runtime"].(string)
	if name == "" {
		return "", fmt.Errorf("body %s has no \"runtime\" string", clip(r.body))
	}
	want := []string{"gomaxprocs", "sched_latency_p50_ms", "sched_latency_p99_ms", "gc_pauses", "gc_cpu_s", "goroutines", "heap_objects_bytes"}
	if t.Impl.Language == "node" {
		want = []string{"heap_used_bytes", "heap_total_bytes", "event_loop_delay_p99_ms", "event_loop_utilization", "gc"}
	}
	missing := []string{}
	unavailable, _ := got["not_available"].([]any)
	for _, k := range want {
		if _, ok := got[k]; ok {
			continue
		}
		said := false
		for _, u := range unavailable {
			said = said || strings.HasPrefix(k, fmt.Sprint(u))
		}
		if !said {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: no %s, and not_available does not name them (body %s)", name, strings.Join(missing, ", "), clip(r.body))
	}
	return name, nil
}
