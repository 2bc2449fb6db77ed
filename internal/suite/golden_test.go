package suite

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"restbench/internal/load"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current code")

// TestSuitesGolden pins what the five suites expand to at every scale: every
// field of every run and the suite description. The golden files were written
// by the untyped reader the typed schema replaced, so a change of schema that
// changes a run fails here. Regenerate with -update only for an intended change.
func TestSuitesGolden(t *testing.T) {
	m := realManifest(t)
	files, err := filepath.Glob("../../suites/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("suite files = %v (%v)", files, err)
	}
	for _, f := range files {
		name := filepath.Base(f[:len(f)-len(".yaml")])
		t.Run(name, func(t *testing.T) {
			snap := map[string]any{}
			for _, scale := range Scales {
				s, err := Load(f, Options{Scale: scale, Impls: m.IDs(), Languages: m.Languages()})
				if err != nil {
					t.Fatal(err)
				}
				snap[scale] = map[string]any{"runs": snapshotRuns(s.Runs), "info": s.Info}
			}
			got, err := json.MarshalIndent(snap, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (write it with go test ./internal/suite -run SuitesGolden -update)", err)
			}
			var wantV any
			if err := json.Unmarshal(want, &wantV); err != nil {
				t.Fatal(err)
			}
			if gotV := withoutAdded(t, snap); !reflect.DeepEqual(withoutAdded(t, wantV), gotV) {
				got, _ = json.MarshalIndent(gotV, "", "  ")
				out := filepath.Join(t.TempDir(), name+".json")
				_ = os.WriteFile(out, got, 0o644)
				t.Errorf("%s expands differently from %s (got: %s; diff them)", f, golden, out)
			}
		})
	}
}

// goldenRun is a Run as the golden files hold it: bodies by length and hash
// (a generated body is 5 MB), GOMAXPROCS=cores by name (the cores of the
// machine that runs the test).
type goldenRun struct {
	Run
	Load goldenLoad
}

type goldenLoad struct {
	load.Config
	Body     string
	Mix      []goldenTarget
	Progress *struct{} `json:",omitempty"` // hides Config.Progress, a func
	Begin    *struct{} `json:",omitempty"` // hides Config.Begin, a func
}

type goldenTarget struct {
	load.Target
	Body string
}

func snapshotRuns(runs []Run) []goldenRun {
	out := make([]goldenRun, len(runs))
	for i, r := range runs {
		env := map[string]string{}
		for k, v := range r.Env {
			if k == "GOMAXPROCS" && r.Params["gomaxprocs"] == "cores" && v == strconv.Itoa(runtime.NumCPU()) {
				v = "NumCPU"
			}
			env[k] = v
		}
		r.Env = env
		g := goldenRun{Run: r, Load: goldenLoad{Config: r.Load, Body: bodyDigest(r.Load.Body)}}
		for _, t := range r.Load.Mix {
			g.Load.Mix = append(g.Load.Mix, goldenTarget{Target: t, Body: bodyDigest(t.Body)})
		}
		g.Load.Config.Body, g.Load.Config.Mix = nil, nil
		out[i] = g
	}
	return out
}

func bodyDigest(b []byte) string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("%d bytes sha256:%x", len(b), sha256.Sum256(b))
}

// addedFields are fields of Run added after the golden files were written;
// they are left out of the comparison (they have tests of their own).
var addedFields = []string{"Runtime", "Hosts", "MaxTrials", "TimeCap"}

// withoutAdded returns the snapshot as generic JSON without addedFields.
func withoutAdded(t *testing.T, snap any) any {
	t.Helper()
	data, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for _, scale := range v.(map[string]any) {
		for _, r := range scale.(map[string]any)["runs"].([]any) {
			for _, k := range addedFields {
				delete(r.(map[string]any), k)
			}
		}
	}
	return v
}
