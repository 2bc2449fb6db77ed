package k8s

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"restbench/internal/impl"
	"restbench/internal/suite"
)

// repoRoot is the checkout this test file is in.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// cell loads a real suite cell: the manifests come from the same model as a
// local run.
func cell(t *testing.T, suiteFile, runID string, generators int) Cell {
	t.Helper()
	root := repoRoot(t)
	m, err := impl.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(filepath.Join(root, suiteFile), suite.Options{Scale: "quick", Impls: m.IDs()})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(s.Runs, func(r suite.Run) bool { return r.ID == runID })
	if i < 0 {
		t.Fatalf("%s has no run %q", suiteFile, runID)
	}
	im, err := m.Get(s.Runs[i].Impl)
	if err != nil {
		t.Fatal(err)
	}
	c := Cell{SuiteFile: suiteFile, Scale: "quick", Run: s.Runs[i], Impl: im, Image: "restbench:test",
		Generators: generators, ServerCPUs: 2, GeneratorCPUs: 1, StartAt: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)}
	if err := c.defaults(); err != nil {
		t.Fatal(err)
	}
	return c
}

// objectsOf decodes every document strictly: a field the k8s.io/api types do
// not know (a typo, or a field of another API version) fails the test.
type decoded struct {
	pods     []corev1.Pod
	services []corev1.Service
	claims   []corev1.PersistentVolumeClaim
	maps     []corev1.ConfigMap
	jobs     []batchv1.Job
}

func decodeStrict(t *testing.T, data []byte) decoded {
	t.Helper()
	var d decoded
	for _, doc := range bytes.Split(data, []byte("---\n")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			t.Fatal(err)
		}
		var err error
		switch tm.APIVersion + "/" + tm.Kind {
		case "v1/Pod":
			d.pods, err = decodeInto(doc, d.pods)
		case "v1/Service":
			d.services, err = decodeInto(doc, d.services)
		case "v1/PersistentVolumeClaim":
			d.claims, err = decodeInto(doc, d.claims)
		case "v1/ConfigMap":
			d.maps, err = decodeInto(doc, d.maps)
		case "batch/v1/Job":
			d.jobs, err = decodeInto(doc, d.jobs)
		default:
			t.Fatalf("unexpected object %s %s", tm.APIVersion, tm.Kind)
		}
		if err != nil {
			t.Fatalf("strict decoding of a %s: %v\n%s", tm.Kind, err, doc)
		}
	}
	return d
}

// decodeInto decodes doc strictly and appends it to list.
func decodeInto[T any](doc []byte, list []T) ([]T, error) {
	var v T
	err := yaml.UnmarshalStrict(doc, &v)
	return append(list, v), err
}

func TestStrictDecodingRefusesUnknownFields(t *testing.T) {
	doc := "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: [{name: a, image: b, cpus: 2}]\n"
	var p corev1.Pod
	if err := yaml.UnmarshalStrict([]byte(doc), &p); err == nil || !strings.Contains(err.Error(), "cpus") {
		t.Fatalf("a Pod with an unknown field decoded: err = %v", err)
	}
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		suite, run string
		generators int
		body       bool
	}{
		{"suites/heysphere.yaml", "closed-loop/go-gorilla c=100", 3, false},
		{"suites/joshuous-sum.yaml", "", 2, true},
	} {
		t.Run(tc.suite, func(t *testing.T) {
			run := tc.run
			if run == "" { // the first cell with a body
				root := repoRoot(t)
				s, err := suite.Load(filepath.Join(root, tc.suite), suite.Options{Scale: "quick"})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range s.Runs {
					if len(r.Load.Body) > 0 && Supported(r) == nil {
						run = r.ID
						break
					}
				}
				if run == "" {
					t.Skipf("%s has no cell with a body", tc.suite)
				}
			}
			c := cell(t, tc.suite, run, tc.generators)
			data, err := Render(c)
			if err != nil {
				t.Fatal(err)
			}
			d := decodeStrict(t, data)
			if len(d.pods) != 1 || len(d.services) != 1 || len(d.claims) != 1 || len(d.jobs) != 2 || (len(d.maps) == 1) != tc.body {
				t.Fatalf("objects: %d pods, %d services, %d claims, %d jobs, %d config maps", len(d.pods), len(d.services), len(d.claims), len(d.jobs), len(d.maps))
			}
			checkServer(t, c, d.pods[0], d.services[0])
			checkGenerators(t, c, d.jobs[0], d.pods[0].Labels)
			checkCollector(t, c, d.jobs[1])
			if tc.body && !bytes.Equal(d.maps[0].BinaryData["body"], c.Run.Load.Body) {
				t.Errorf("the body ConfigMap holds %d bytes, the cell's body %d", len(d.maps[0].BinaryData["body"]), len(c.Run.Load.Body))
			}
		})
	}
}

// checkServer: Guaranteed QoS with whole CPUs (requests = limits for every
// resource of every container), readiness on the contract's /status, a
// Service that selects it.
func checkServer(t *testing.T, c Cell, pod corev1.Pod, svc corev1.Service) {
	t.Helper()
	for _, ct := range pod.Spec.Containers {
		r := ct.Resources
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			req, lim := r.Requests[name], r.Limits[name]
			if req.IsZero() || req.Cmp(lim) != 0 {
				t.Errorf("server %s: request %v, limit %v: not Guaranteed", name, req.String(), lim.String())
			}
		}
		cpu := r.Requests[corev1.ResourceCPU]
		if cpu.MilliValue()%1000 != 0 || cpu.Value() != int64(c.ServerCPUs) {
			t.Errorf("server CPU %s: want %d whole CPUs, for the static CPU manager", cpu.String(), c.ServerCPUs)
		}
		p := ct.ReadinessProbe
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/status" || p.HTTPGet.Port.IntValue() != c.Port {
			t.Errorf("server readiness probe %+v: want GET /status on %d", p, c.Port)
		}
		if !slices.Equal(ct.Command, c.Impl.Start) {
			t.Errorf("server command %v, manifest says %v", ct.Command, c.Impl.Start)
		}
		for k, v := range c.Run.Env {
			if !slices.Contains(ct.Env, corev1.EnvVar{Name: k, Value: v}) {
				t.Errorf("server env lacks %s=%s: %v", k, v, ct.Env)
			}
		}
	}
	for k, v := range svc.Spec.Selector {
		if pod.Labels[k] != v {
			t.Errorf("service selects %s=%s, the pod has %v", k, v, pod.Labels)
		}
	}
	if want := fmt.Sprintf("http://%s.%s.svc:%d", svc.Name, c.Namespace, c.Port); c.ServerURL() != want {
		t.Errorf("generators go to %s, the service is %s", c.ServerURL(), want)
	}
}

func checkGenerators(t *testing.T, c Cell, job batchv1.Job, serverLabels map[string]string) {
	t.Helper()
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || *s.Completions != int32(c.Generators) || *s.Parallelism != int32(c.Generators) {
		t.Errorf("generator job: mode %v, completions %v, parallelism %v; want Indexed, %d, %d", s.CompletionMode, s.Completions, s.Parallelism, c.Generators, c.Generators)
	}
	pod := s.Template.Spec
	aa := pod.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if len(aa) != 1 || aa[0].TopologyKey != "kubernetes.io/hostname" {
		t.Fatalf("anti-affinity %+v", aa)
	}
	for k, v := range aa[0].LabelSelector.MatchLabels {
		if serverLabels[k] != v {
			t.Errorf("anti-affinity selects %s=%s, the server has %v", k, v, serverLabels)
		}
	}
	ct := pod.Containers[0]
	argv := append(slices.Clone(ct.Command), ct.Args...)
	want, err := GeneratorArgs(c.Run, c.ServerURL(), c.Generators, c.StartAt, c.GeneratorCPUs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(argv, want) {
		t.Errorf("generator argv %q, want %q", argv, want)
	}
	for _, pair := range [][2]string{
		{"--shard", fmt.Sprintf("$(JOB_COMPLETION_INDEX)/%d", c.Generators)},
		{"--start-at", "2026-11-22T21:00:00Z"},
		{"-c", fmt.Sprint(c.Run.Load.Connections)},
	} {
		if i := slices.Index(argv, pair[0]); i < 0 || argv[i+1] != pair[1] {
			t.Errorf("generator argv %q: want %s %s", argv, pair[0], pair[1])
		}
	}
	if !slices.Contains(argv, "--allow-remote") {
		t.Errorf("generator argv %q lacks --allow-remote: the server is on another node", argv)
	}
	i := slices.IndexFunc(ct.Env, func(e corev1.EnvVar) bool { return e.Name == IndexEnv })
	if i < 0 || ct.Env[i].ValueFrom == nil || ct.Env[i].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("generator env %+v: JOB_COMPLETION_INDEX must come from the job-completion-index annotation", ct.Env)
	}
	cpu := ct.Resources.Limits[corev1.ResourceCPU]
	if cpu.Cmp(resource.MustParse(fmt.Sprint(c.GeneratorCPUs))) != 0 {
		t.Errorf("generator CPU limit %s, want %d", cpu.String(), c.GeneratorCPUs)
	}
}

func checkCollector(t *testing.T, c Cell, job batchv1.Job) {
	t.Helper()
	script := strings.Join(job.Spec.Template.Spec.Containers[0].Command, " ")
	for _, want := range []string{
		fmt.Sprintf("-ge %d ]", c.Generators), "bin/restbench merge", "--suite '" + c.SuiteFile + "'",
		"--run '" + c.Run.ID + "'", "--trial-dir /results/trial", "/results/shard-*.json",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("collector script lacks %q:\n%s", want, script)
		}
	}
}

func TestExpandAsTheKubelet(t *testing.T) {
	env := map[string]string{"JOB_COMPLETION_INDEX": "2", "RESULTS_DIR": "/r"}
	for in, want := range map[string]string{
		"$(JOB_COMPLETION_INDEX)/3":                         "2/3",
		"$(RESULTS_DIR)/shard-$(JOB_COMPLETION_INDEX).json": "/r/shard-2.json",
		"$(UNSET)/x":      "$(UNSET)/x",
		"$$(RESULTS_DIR)": "$(RESULTS_DIR)",
		"cost $5":         "cost $5",
		"open $(":         "open $(",
	} {
		if got := Expand(in, env); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnsupportedCells(t *testing.T) {
	for _, tc := range []struct {
		run  suite.Run
		want string
	}{
		{suite.Run{ID: "a", Engine: "wrk"}, "engine wrk"},
		{suite.Run{ID: "a", RateOf: "b"}, "rate_of"},
	} {
		if _, err := GeneratorArgs(tc.run, "http://x", 2, time.Now(), 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v", tc.run, err)
		}
	}
	if _, err := Render(Cell{Run: suite.Run{ID: "a"}, StartAt: time.Now()}); err == nil || !strings.Contains(err.Error(), "--image") {
		t.Errorf("no image: err = %v", err)
	}
}
