package load

import (
	"path/filepath"

	"restbench/internal/request"
	"restbench/internal/yamlfile"
)

// ParseMix reads a mix file: a YAML list of targets, for example
//
//   - {name: time, path: /time, weight: 99}
//   - {name: work, path: "/time?work=1", weight: 1}
//   - {name: echo, method: POST, path: /echo, body: "@../fixtures/echo-body.json"}
//
// under the rules of package request, which also reads a suite's mix:. A
// body "@file" is read relative to the mix file's folder.
func ParseMix(path string) ([]Target, error) {
	m, err := request.ReadMix(path)
	if err != nil {
		return nil, err
	}
	targets, err := MixTargets(m, request.NewBodies(filepath.Dir(path)))
	return targets, yamlfile.InFile(err, path)
}

// MixTargets makes the targets of a mix, reading their bodies through
// bodies. A target with a body is sent with Content-Type: application/json
// unless its headers name one.
func MixTargets(m request.Mix, bodies *request.Bodies) ([]Target, error) {
	out := make([]Target, len(m.Targets))
	for i, t := range m.Targets {
		body, err := bodies.Get(t.Body)
		if err != nil {
			return nil, err
		}
		out[i] = Target{
			Name: t.Name.V, Method: request.MethodFor(t.Method, t.Body != nil), Path: t.Path.V,
			Headers: request.WithJSONType(t.Headers.V, t.Body != nil), Body: body, Weight: t.Weight.V,
		}
	}
	return out, nil
}
