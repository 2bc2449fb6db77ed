// Package malformed provides the malformed-input corpus: the requests a
// hostile or broken client sends, made from a seed so that every
// implementation gets the same bytes and a failure names one that can be
// sent again.
package malformed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"restbench/internal/payload"
	"restbench/internal/rawhttp"
)

// CorpusFile holds the seed and the counts of the malformed-input corpus,
// relative to the repository root.
const CorpusFile = "fixtures/malformed.json"

// Corpus is the malformed-input corpus: the requests a hostile or broken
// client sends. It is made from a seed, so every implementation gets the
// same requests and a failure names one that can be sent again.
type Corpus struct {
	Seed    uint64         `json:"seed"`
	BoundMs int            `json:"boundMs"`
	Counts  map[string]int `json:"counts"`
	About   string         `json:"about"`
}

// Expect is what a malformed request must get.
type Expect int

const (
	// AnyAnswer: a complete answer, any status, or a clean close. Used for
	// input the HTTP layer refuses before any route sees it.
	AnyAnswer Expect = iota
	// JSONAnswer: a complete answer (a /filter may abort a 200 halfway), an
	// error status with the contract's JSON error body.
	JSONAnswer
	// JSONError: an error status (4xx) with the contract's JSON error body.
	JSONError
	// Refused413: a 413 the client can read: never a reset.
	Refused413
)

// Request is one request of the corpus.
type Request struct {
	Name   string
	Pieces [][]byte
	EOF    bool // shut the sending side after the last piece
	Expect Expect
	// Flood: the server may reset while the request is still arriving (a
	// header of hundreds of kilobytes is refused, not read).
	Flood bool
	// Smuggle: a request with Content-Length and Transfer-Encoding, after
	// which the connection must close (RFC 9112 section 6.3).
	Smuggle bool
}

// Load reads the corpus parameters of the repository at root.
func Load(root string) (*Corpus, error) {
	path := filepath.Join(root, CorpusFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("malformed corpus: %w (run inside the restbench checkout)", err)
	}
	var c Corpus
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for kind := range c.Counts {
		if _, ok := corpusKinds[kind]; !ok {
			return nil, fmt.Errorf("%s: counts: unknown kind %q (known: %s)", path, kind, strings.Join(slices.Sorted(maps.Keys(corpusKinds)), ", "))
		}
	}
	if c.BoundMs <= 0 {
		return nil, fmt.Errorf("%s: boundMs must be a positive number of milliseconds", path)
	}
	return &c, nil
}

// Requests makes the corpus's requests for a server at host, in a fixed
// order: the same seed gives the same bytes.
func (c *Corpus) Requests(root, host string) ([]Request, error) {
	bases, err := corpusBodies(root)
	if err != nil {
		return nil, err
	}
	g := &corpusGen{rnd: rand.New(rand.NewPCG(c.Seed, 20)), host: host, bases: bases}
	var out []Request
	for _, kind := range slices.Sorted(maps.Keys(c.Counts)) {
		for i := range c.Counts[kind] {
			m := corpusKinds[kind](g)
			m.Name = fmt.Sprintf("%s #%d: %s", kind, i+1, m.Name)
			out = append(out, m)
		}
	}
	return out, nil
}

// corpusBodies are the valid bodies that mutations start from.
func corpusBodies(root string) (map[string][]byte, error) {
	bases := map[string][]byte{}
	for path, file := range map[string]string{"/echo": "echo-body.json", "/echo/any": "echo-body.json", "/sum": "sum-body.json"} {
		b, err := os.ReadFile(filepath.Join(root, "fixtures", file))
		if err != nil {
			return nil, err
		}
		bases[path] = b
	}
	var f bytes.Buffer
	if err := payload.Filter(&f, 4_000, 20); err != nil {
		return nil, err
	}
	bases["/filter"] = f.Bytes()
	return bases, nil
}

type corpusGen struct {
	rnd   *rand.Rand
	host  string
	bases map[string][]byte
}

func (g *corpusGen) pick(list ...string) string { return list[g.rnd.IntN(len(list))] }

func (g *corpusGen) framing() rawhttp.Framing {
	return rawhttp.Framings[g.rnd.IntN(len(rawhttp.Framings))]
}

func (g *corpusGen) post(path string, body []byte, f rawhttp.Framing, close bool) [][]byte {
	return rawhttp.Build("POST", path, g.host, []string{"Content-Type: application/json"}, body, f, close)
}

// mutate changes a valid body the ways a broken client does: cut short,
// bytes flipped, inserted or dropped, a structural character swapped.
func (g *corpusGen) mutate(b []byte) ([]byte, string) {
	b = slices.Clone(b)
	at := g.rnd.IntN(len(b))
	switch g.rnd.IntN(5) {
	case 0:
		return b[:at], fmt.Sprintf("cut at %d", at)
	case 1:
		b[at] ^= byte(1 + g.rnd.IntN(255))
		return b, fmt.Sprintf("byte %d flipped", at)
	case 2:
		const chars = "{}[]\",:\\0-eE."
		c := chars[g.rnd.IntN(len(chars))]
		return slices.Insert(b, at, c), fmt.Sprintf("%q inserted at %d", c, at)
	case 3:
		return slices.Delete(b, at, at+1), fmt.Sprintf("byte %d dropped", at)
	default:
		const chars = "{}[]\",:"
		c := chars[g.rnd.IntN(len(chars))]
		b[at] = c
		return b, fmt.Sprintf("byte %d set to %q", at, c)
	}
}

func (g *corpusGen) randomBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.rnd.IntN(256))
	}
	return b
}

// corpusKinds make one request of each kind.
var corpusKinds = map[string]func(g *corpusGen) Request{
	"mutated-json": func(g *corpusGen) Request {
		path := g.pick("/echo", "/echo/any", "/sum", "/filter")
		body, how := g.mutate(g.bases[path])
		f, close := g.framing(), g.rnd.IntN(2) == 0
		return Request{Name: fmt.Sprintf("POST %s, %s, %s", path, how, rawhttp.SentAs(f, close)), Pieces: g.post(path, body, f, close), Expect: JSONAnswer}
	},
	"time-params": func(g *corpusGen) Request {
		v := g.pick("-1", "-0", "+1", "1.5", "1e3", "10001", "99999999999999999999", "", "abc", "0x10", "%20", "1%00", "%FF", "1,2", " 1")
		q := g.pick("delay", "work") + "=" + strings.ReplaceAll(v, " ", "%20")
		return Request{Name: "GET /time?" + q, Pieces: rawhttp.Build("GET", "/time?"+q, g.host, nil, nil, rawhttp.Length, false), Expect: JSONError}
	},
	"filter-params": func(g *corpusGen) Request {
		q := "min_version=" + g.pick("", "abc", "NaN", "Inf", "-Inf", "1e999", "5x", "%FF", "0x")
		body := []byte(`[{"name":"a","language":"go","id":"1","bio":"b","version":6}]`)
		return Request{Name: "POST /filter?" + q, Pieces: g.post("/filter?"+q, body, g.framing(), false), Expect: JSONError}
	},
	"oversize": func(g *corpusGen) Request {
		path := g.pick("/echo", "/echo/any", "/sum")
		body := bytes.Repeat([]byte("x"), 2<<20)
		what := "2 MiB of x"
		if g.rnd.IntN(2) == 0 {
			copy(body, `{"a":1,"b":2,"pad":"`)
			copy(body[len(body)-2:], `"}`)
			what = "2 MiB of valid JSON"
		}
		f, close := g.framing(), g.rnd.IntN(2) == 0
		return Request{Name: fmt.Sprintf("POST %s %s, %s", path, what, rawhttp.SentAs(f, close)), Pieces: g.post(path, body, f, close), Expect: Refused413}
	},
	"truncated-filter": func(g *corpusGen) Request {
		body := g.bases["/filter"]
		cut := g.rnd.IntN(len(body))
		if g.rnd.IntN(2) == 0 {
			pieces := g.post("/filter", body[:cut], rawhttp.Chunked, false)
			return Request{Name: fmt.Sprintf("POST /filter chunked, cut at %d with no last chunk", cut), Pieces: pieces[:len(pieces)-1], EOF: true}
		}
		pieces := rawhttp.Build("POST", "/filter", g.host, []string{"Content-Type: application/json", fmt.Sprintf("Content-Length: %d", len(body))}, nil, rawhttp.Length, false)
		pieces[0] = append(bytes.TrimSuffix(pieces[0], []byte("\r\n")), append([]byte("\r\n"), body[:cut]...)...)
		return Request{Name: fmt.Sprintf("POST /filter with Content-Length %d, cut at %d", len(body), cut), Pieces: pieces, EOF: true}
	},
	"bad-length": func(g *corpusGen) Request {
		cl := g.pick("-1", "-5", "99999999999999999999", "12abc", "0x10", "1, 2", "", "+13")
		head := fmt.Sprintf("POST /sum HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %s\r\n\r\n", g.host, cl)
		return Request{Name: "POST /sum with Content-Length: " + cl, Pieces: [][]byte{[]byte(head + `{"a":1,"b":2}`)}, EOF: true}
	},
	"bad-chunk": func(g *corpusGen) Request {
		size := g.pick("zz", "-1", "fffffffffffffffffff", "0x5", "5 5", "", "d;x=\x01")
		head := fmt.Sprintf("POST /sum HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", g.host)
		return Request{Name: fmt.Sprintf("POST /sum, chunk size %q", size), Pieces: [][]byte{[]byte(head), []byte(size + "\r\n{\"a\":1,\"b\":2}\r\n0\r\n\r\n")}, EOF: true}
	},
	"cl-te": func(g *corpusGen) Request {
		body := g.pick(`{"a":1,"b":2}`, `{"a":`)
		te := g.pick("chunked", "Chunked", "gzip, chunked")
		head := fmt.Sprintf("POST /sum HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: %s\r\n\r\n", g.host, te)
		chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body)
		next := fmt.Sprintf("GET /status HTTP/1.1\r\nHost: %s\r\n\r\n", g.host)
		return Request{Name: fmt.Sprintf("POST /sum with Content-Length and Transfer-Encoding: %s, then GET /status", te), Pieces: [][]byte{[]byte(head + chunked + next)}, Smuggle: true}
	},
	"long-path": func(g *corpusGen) Request {
		path := "/" + strings.Repeat("a", 100_000)
		return Request{Name: "GET a 100,000-byte path", Pieces: rawhttp.Build("GET", path, g.host, nil, nil, rawhttp.Length, g.rnd.IntN(2) == 0), Flood: true}
	},
	"big-header": func(g *corpusGen) Request {
		h := "X-Big: " + strings.Repeat("a", 200_000)
		return Request{Name: "GET /status with a 200 KB header", Pieces: rawhttp.Build("GET", "/status", g.host, []string{h}, nil, rawhttp.Length, g.rnd.IntN(2) == 0), Flood: true}
	},
	"tls-hello": func(g *corpusGen) Request {
		// A TLS 1.2/1.3 ClientHello record: handshake type 1, random and
		// session id from the seed, then cipher suites and no extensions.
		var b []byte
		b = append(b, 0x16, 0x03, 0x01, 0x00, 0x4d, 0x01, 0x00, 0x00, 0x49, 0x03, 0x03)
		b = append(b, g.randomBytes(32)...)
		b = append(b, 0x20)
		b = append(b, g.randomBytes(32)...)
		b = append(b, 0x00, 0x04, 0x13, 0x01, 0x13, 0x02, 0x01, 0x00, 0x00, 0x00)
		return Request{Name: "a TLS ClientHello", Pieces: [][]byte{b}, EOF: true}
	},
	"h2-preface": func(g *corpusGen) Request {
		return Request{Name: "the HTTP/2 preface and a SETTINGS frame", Pieces: [][]byte{[]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")}, EOF: true}
	},
	"random-bytes": func(g *corpusGen) Request {
		n := 1 + g.rnd.IntN(4096)
		return Request{Name: fmt.Sprintf("%d random bytes", n), Pieces: [][]byte{g.randomBytes(n)}, EOF: true}
	},
}
