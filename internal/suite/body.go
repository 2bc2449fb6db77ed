package suite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"restbench/internal/gen"
)

// bodyCache reads each file and generates each filter array once, so runs
// with the same body share one slice (a 5 MB body in 6 runs is 5 MB, not 30).
type bodyCache struct {
	dir   string // the suite file's folder: "@file" is relative to it
	p     *parser
	cache map[string][]byte
}

func (b *bodyCache) get(v *bodyValue) ([]byte, error) {
	switch {
	case v == nil:
		return nil, nil
	case v.File == "" && v.Generate == "":
		return v.Literal, nil
	}
	key := fmt.Sprintf("file:%s", v.File)
	if v.Generate != "" {
		key = fmt.Sprintf("%s:%d:%d", v.Generate, v.Size, v.Seed)
	}
	if data, ok := b.cache[key]; ok {
		return data, nil
	}
	var data []byte
	if v.File != "" {
		path := v.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(b.dir, path)
		}
		d, err := os.ReadFile(path)
		if err != nil {
			return nil, b.p.errorf(v.Node, "body", "%v (the path is relative to the suite file)", err)
		}
		data = d
	} else {
		var buf bytes.Buffer
		buf.Grow(int(v.Size) + 4096)
		if err := gen.Filter(&buf, v.Size, v.Seed); err != nil {
			return nil, b.p.errorf(v.Node, "body", "generate %s of %d bytes: %v", v.Generate, v.Size, err)
		}
		data = buf.Bytes()
	}
	b.cache[key] = data
	return data, nil
}

// resolve fills in the bytes of a run's body and of its mix targets' bodies.
func (b *bodyCache) resolve(r *Run, pd pending) error {
	data, err := b.get(pd.body)
	if err != nil {
		return err
	}
	r.Load.Body = data
	for i, tb := range pd.mixBodies {
		if i >= len(r.Load.Mix) || tb == nil {
			continue
		}
		d, err := b.get(tb)
		if err != nil {
			return err
		}
		t := &r.Load.Mix[i]
		t.Body = d
		if !hasHeader(t.Headers, "Content-Type") {
			t.Headers = append(append([]string(nil), t.Headers...), "Content-Type: application/json")
		}
	}
	// A work_share mix repeats the run's request; its targets carry the body too.
	if pd.mixBodies == nil {
		for i := range r.Load.Mix {
			r.Load.Mix[i].Body = data
		}
	}
	return nil
}
