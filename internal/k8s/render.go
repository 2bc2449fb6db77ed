package k8s

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"restbench/internal/impl"
	"restbench/internal/suite"
)

// Cell is one experiment cell to run on a cluster, and where.
type Cell struct {
	SuiteFile string    // the suite, as a path in the image relative to its working directory
	Scale     string    // the scale the suite was loaded at
	Run       suite.Run // the cell
	Impl      impl.Impl // its implementation
	Trial     int       // the trial number the collector files

	Image      string // an image holding a built checkout (bin/, servers/) at WorkDir
	WorkDir    string // default /restbench
	Namespace  string // default "default"
	Generators int    // pods of the Indexed Job; default 2
	// Whole CPUs: with requests equal to limits the server Pod is Guaranteed,
	// and the kubelet's static CPU manager gives it cores of its own.
	ServerCPUs    int
	ServerMemory  string // default 1Gi
	GeneratorCPUs int    // per generator pod, also its event-loop threads
	Port          int    // the contract port; default 8080
	StorageClass  string // of the results volume (ReadWriteMany); "" uses the cluster default
	StartAt       time.Time
	// ServerHost is the server's address where there is no Service (the
	// network-namespace stand-in); "" means the cell's Service.
	ServerHost string
}

// Labels every object of a cell carries; role tells server from generator.
const (
	LabelCell = "restbench.dev/cell"
	LabelRole = "restbench.dev/role"
)

func (c *Cell) defaults() error {
	if c.WorkDir == "" {
		c.WorkDir = "/restbench"
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	if c.Generators <= 0 {
		c.Generators = 2
	}
	if c.ServerCPUs <= 0 {
		c.ServerCPUs = 1
	}
	if c.GeneratorCPUs <= 0 {
		c.GeneratorCPUs = 1
	}
	if c.ServerMemory == "" {
		c.ServerMemory = "1Gi"
	}
	if c.Port == 0 {
		c.Port = 8080
	}
	if c.Trial <= 0 {
		c.Trial = 1
	}
	if c.Image == "" {
		return fmt.Errorf("no image: give --image, an image with a built restbench checkout (docs/scale-out.md shows one)")
	}
	if c.StartAt.IsZero() {
		return fmt.Errorf("no start time: every generator must be given the same --start-at")
	}
	return nil
}

// Name is the cell's object name prefix: a DNS label from the run id.
func (c *Cell) Name() string {
	var b strings.Builder
	for _, r := range strings.ToLower(c.Run.ID) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	return strings.TrimRight("rb-"+name[:min(len(name), 40)], "-") + "-t" + strconv.Itoa(c.Trial)
}

// ServerURL is where the generators reach the server: its Service, or
// ServerHost where that is set.
func (c *Cell) ServerURL() string {
	host := c.ServerHost
	if host == "" {
		host = fmt.Sprintf("%s-server.%s.svc", c.Name(), c.Namespace)
	}
	return fmt.Sprintf("http://%s:%d", host, c.Port)
}

// Render returns the cell's objects as one multi-document YAML stream, in
// the order they are applied: body ConfigMap (when the cell has a body),
// results volume claim, server Service and Pod, generator Job, collector Job.
func Render(c Cell) ([]byte, error) {
	if err := c.defaults(); err != nil {
		return nil, err
	}
	objs, err := objects(c)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, o := range objs {
		data, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		out.WriteString("---\n")
		out.Write(data)
	}
	return out.Bytes(), nil
}

func objects(c Cell) ([]any, error) {
	name := c.Name()
	labels := func(role string) map[string]string { return map[string]string{LabelCell: name, LabelRole: role} }
	meta := func(suffix, role string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name + "-" + suffix, Namespace: c.Namespace, Labels: labels(role)}
	}
	var objs []any
	results := corev1.Volume{Name: "results", VolumeSource: corev1.VolumeSource{
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: name + "-results"}}}
	volumes := []corev1.Volume{results}
	if len(c.Run.Load.Body) > 0 {
		objs = append(objs, &corev1.ConfigMap{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta("body", "body"),
			BinaryData: map[string][]byte{"body": c.Run.Load.Body},
		})
		volumes = append(volumes, corev1.Volume{Name: "body", VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: name + "-body"}}}})
	}
	gen, err := generatorContainer(c)
	if err != nil {
		return nil, err
	}
	claim := &corev1.PersistentVolumeClaim{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, ObjectMeta: meta("results", "results"),
		Spec: corev1.PersistentVolumeClaimSpec{
			// Generators on several nodes write to it, the collector reads it.
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
		},
	}
	if c.StorageClass != "" {
		claim.Spec.StorageClassName = &c.StorageClass
	}
	objs = append(objs, claim, service(c, meta("server", "server")), serverPod(c, meta("server", "server")))

	n := int32(c.Generators)
	indexed := batchv1.IndexedCompletion
	objs = append(objs, &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: meta("load", "generator"),
		Spec: batchv1.JobSpec{
			CompletionMode: &indexed, Completions: &n, Parallelism: &n,
			// A generator that failed has missed the shared start: retrying it
			// would measure other seconds. The collector reports the gap.
			BackoffLimit: ptr(int32(0)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels("generator")},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Affinity:      awayFrom(labels("server")),
					Volumes:       volumes,
					Containers:    []corev1.Container{gen},
				},
			},
		},
	})
	objs = append(objs, collector(c, meta("collect", "collector"), results))
	return objs, nil
}

// GeneratorContainer is the container of every generator pod: the command
// and environment the network-namespace stand-in (internal/hosts) runs too.
// Its environment holds JOB_COMPLETION_INDEX (from the pod's annotation),
// RESULTS_DIR and BODY_FILE (mount paths).
func GeneratorContainer(c Cell) (corev1.Container, error) {
	if err := c.defaults(); err != nil {
		return corev1.Container{}, err
	}
	return generatorContainer(c)
}

func generatorContainer(c Cell) (corev1.Container, error) {
	args, err := GeneratorArgs(c.Run, c.ServerURL(), c.Generators, c.StartAt, c.GeneratorCPUs)
	if err != nil {
		return corev1.Container{}, err
	}
	mounts := []corev1.VolumeMount{{Name: "results", MountPath: "/results"}}
	env := []corev1.EnvVar{
		// The Job controller sets it too; stating it makes $(JOB_COMPLETION_INDEX)
		// in the arguments independent of that.
		{Name: IndexEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
			FieldPath: "metadata.annotations['" + batchv1.JobCompletionIndexAnnotation + "']"}}},
		{Name: ResultsEnv, Value: "/results"},
	}
	if len(c.Run.Load.Body) > 0 {
		mounts = append(mounts, corev1.VolumeMount{Name: "body", MountPath: "/body", ReadOnly: true})
		env = append(env, corev1.EnvVar{Name: BodyEnv, Value: "/body/body"})
	}
	return corev1.Container{
		Name: "generator", Image: c.Image, WorkingDir: c.WorkDir,
		Command: args[:1], Args: args[1:], Env: env, VolumeMounts: mounts,
		Resources: wholeCPUs(resource.MustParse(strconv.Itoa(c.GeneratorCPUs)), resource.MustParse("512Mi")),
	}, nil
}

// ServerEnv is the server's environment, as a local run gives it: HOST
// and PORT, then the implementation's variables and the cell's (THREADS,
// GOMAXPROCS, ...), the cell's winning.
func ServerEnv(c Cell, host string) []corev1.EnvVar {
	port := c.Port
	if port == 0 {
		port = 8080
	}
	env := []corev1.EnvVar{{Name: "HOST", Value: host}, {Name: "PORT", Value: strconv.Itoa(port)}}
	vars := maps.Clone(c.Impl.Env)
	if vars == nil {
		vars = map[string]string{}
	}
	maps.Copy(vars, c.Run.Env)
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		env = append(env, corev1.EnvVar{Name: k, Value: vars[k]})
	}
	return env
}

// serverPod: requests equal to limits, in whole CPUs, make the Pod
// Guaranteed; the static CPU manager then gives it exclusive cores, so
// neither the generators nor anything else share them.
func serverPod(c Cell, meta metav1.ObjectMeta) *corev1.Pod {
	env := ServerEnv(c, "0.0.0.0")
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: meta,
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name: "server", Image: c.Image, WorkingDir: c.WorkDir, Command: c.Impl.Start, Env: env,
				Ports:     []corev1.ContainerPort{{Name: "http", ContainerPort: int32(c.Port)}},
				Resources: wholeCPUs(resource.MustParse(strconv.Itoa(c.ServerCPUs)), resource.MustParse(c.ServerMemory)),
				// The contract's readiness: GET /status answers 200.
				ReadinessProbe: &corev1.Probe{
					ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/status", Port: intstrPort(c.Port)}},
					PeriodSeconds: 1, FailureThreshold: 3,
				},
			}},
		},
	}
}

func service(c Cell, meta metav1.ObjectMeta) *corev1.Service {
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta,
		Spec: corev1.ServiceSpec{
			Selector: meta.Labels,
			Ports:    []corev1.ServicePort{{Name: "http", Port: int32(c.Port), TargetPort: intstrPort(c.Port)}},
		},
	}
}

// collector waits for every generator's file, merges them and files the
// suite's trial in /results/trial, then stays up an hour so that kubectl cp
// can fetch it (docs/scale-out.md).
func collector(c Cell, meta metav1.ObjectMeta, results corev1.Volume) *batchv1.Job {
	trialDir := "/results/trial"
	script := fmt.Sprintf(`set -e
until [ "$(ls /results/shard-*.json 2>/dev/null | wc -l)" -ge %d ]; do sleep 1; done
%s merge --suite %s --scale %s --run %s --trial %d --trial-dir %s /results/shard-*.json
echo "trial filed in %s; fetch it with kubectl cp, then delete the cell"
sleep 3600
`, c.Generators, Binary, shellQuote(c.SuiteFile), shellQuote(c.Scale), shellQuote(c.Run.ID), c.Trial, trialDir, trialDir)
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: meta,
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr(int32(0)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: meta.Labels},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Volumes:       []corev1.Volume{results},
					Containers: []corev1.Container{{
						Name: "collect", Image: c.Image, WorkingDir: c.WorkDir,
						Command:      []string{"sh", "-c", script},
						VolumeMounts: []corev1.VolumeMount{{Name: "results", MountPath: "/results"}},
					}},
				},
			},
		},
	}
}

// awayFrom keeps a generator off the node of the pods matching sel: load
// generated on the server's node would take the server's CPU and skip the
// network.
func awayFrom(sel map[string]string) *corev1.Affinity {
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: sel},
			TopologyKey:   "kubernetes.io/hostname",
		}},
	}}
}

func wholeCPUs(cpu, mem resource.Quantity) corev1.ResourceRequirements {
	l := corev1.ResourceList{corev1.ResourceCPU: cpu, corev1.ResourceMemory: mem}
	return corev1.ResourceRequirements{Requests: l, Limits: maps.Clone(l)}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func ptr[T any](v T) *T { return &v }

func intstrPort(p int) intstr.IntOrString { return intstr.FromInt32(int32(p)) }
