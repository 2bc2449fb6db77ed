// Package settings reads a suite file's settings: each key's value,
// checked as it is decoded and keeping its line for later errors, and the
// layers (defaults, experiment, scale, matrix value, cell) that stack into
// one run's settings.
package settings

import (
	"reflect"
	"slices"

	"go.yaml.in/yaml/v3"

	"restbench/internal/request"
	"restbench/internal/yamlfile"
)

// Layer is one layer of settings: defaults, an experiment, a scale, a
// matrix value or a cell's set. Every field is a pointer, nil where the
// layer leaves the key out, so that Apply can put a layer on top of another
// (as k6 merges its options): a later layer replaces what it sets.
// Each value keeps its node, so errors found when a run is assembled still
// name the line.
type Layer struct {
	Engine          *Engine           `yaml:"engine"`
	Connections     *Connections      `yaml:"connections"`
	ConnectionsCap  *Count            `yaml:"max_connections"` // a cap; unlike load --max-connections, never growth
	Duration        *Duration         `yaml:"duration"`
	Warmup          *Duration         `yaml:"warmup"`
	Prewarm         *Duration         `yaml:"prewarm"`
	PrewarmRequests *Requests         `yaml:"prewarm_requests"`
	Requests        *Requests         `yaml:"requests"`
	Trials          *Count            `yaml:"trials"`
	MaxTrials       *Count            `yaml:"max_trials"`
	TimeCap         *Duration         `yaml:"time_cap"`
	Window          *Window           `yaml:"window"`
	Timeout         *Duration         `yaml:"timeout"`
	KeepAlive       *Boolean          `yaml:"keepalive"`
	Rate            *Rate             `yaml:"rate"`
	RateOf          *yamlfile.Name    `yaml:"rate_of"`
	RateSearch      *RateSearch       `yaml:"rate_search"`
	Placement       *Placement        `yaml:"placement"`
	Quota           *Quota            `yaml:"quota"`
	Threads         *Threads          `yaml:"threads"`
	Gomaxprocs      *Gomaxprocs       `yaml:"gomaxprocs"`
	Cluster         *Cluster          `yaml:"cluster"`
	Backlog         *Backlog          `yaml:"backlog"`
	Runtime         *RuntimeName      `yaml:"runtime"`
	RuntimeFlags    *RuntimeFlags     `yaml:"runtime_flags"`
	Delay           *Millis           `yaml:"delay"`
	Work            *Millis           `yaml:"work"`
	WorkShare       *Percent          `yaml:"work_share"`
	Expect          *Status           `yaml:"expect"`
	ExpectJSON      *Boolean          `yaml:"expect_json"`
	Probe           *Probe            `yaml:"probe"`
	BodySize        *request.Size     `yaml:"body_size"`
	Method          *request.Method   `yaml:"method"`
	Path            *request.Path     `yaml:"path"`
	Headers         *request.Headers  `yaml:"headers"`
	Body            *request.Body     `yaml:"body"`
	Request         *requestShorthand `yaml:"request"`
	Mix             *request.Mix      `yaml:"mix"`
}

// requestShorthand is request: {method, path, headers, body}: the four
// settings in one.
type requestShorthand struct {
	Method  *request.Method  `yaml:"method"`
	Path    *request.Path    `yaml:"path"`
	Headers *request.Headers `yaml:"headers"`
	Body    *request.Body    `yaml:"body"`
}

func (r *requestShorthand) UnmarshalYAML(n *yaml.Node) error {
	return yamlfile.DecodeFields(n, "request", r)
}

// UnmarshalYAML reads a block of settings; its errors name the key the
// block is under ("unknown field in defaults").
func (s *Layer) UnmarshalYAML(n *yaml.Node) error {
	return yamlfile.DecodeFields(n, "", s)
}

// AxisKeys are the settings that can also vary in a matrix or be matched by
// a cell, in the order labels name them.
var AxisKeys = []string{
	"engine", "connections", "duration", "requests", "keepalive", "rate", "placement", "quota",
	"threads", "gomaxprocs", "cluster", "backlog", "runtime", "runtime_flags", "delay", "work", "work_share", "path", "body_size",
}

// Apply puts layer o on top of s: every key o sets replaces s's.
// request: sets its four keys.
func (s *Layer) Apply(o *Layer) {
	if o == nil {
		return
	}
	dst, src := reflect.ValueOf(s).Elem(), reflect.ValueOf(o).Elem()
	for i := 0; i < src.NumField(); i++ {
		if f := src.Field(i); !f.IsNil() {
			dst.Field(i).Set(f)
		}
	}
	if r := o.Request; r != nil {
		s.Request = nil
		s.Apply(&Layer{Method: r.Method, Path: r.Path, Headers: r.Headers, Body: r.Body})
	}
}

// With returns s with the layers on top, s itself unchanged.
func (s Layer) With(layers ...*Layer) Layer {
	for _, l := range layers {
		s.Apply(l)
	}
	return s
}

// AxisTexts returns the values of the axis keys s sets, as written, for
// Params. Values that are not single values (a placement's CPU lists) are
// left out.
func (s *Layer) AxisTexts() map[string]string {
	out := map[string]string{}
	for key, f := range yamlfile.Fields(s) {
		if f.IsNil() || !slices.Contains(AxisKeys, key) {
			continue
		}
		if t := f.Interface().(interface{ Text() string }).Text(); t != "" {
			out[key] = t
		}
	}
	return out
}
