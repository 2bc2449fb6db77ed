// Package payload generates request bodies: the /filter body of the server
// contract (docs/contract.md), deterministic for a seed and streamed, so that
// a 200 MB body can be produced on the fly into a request without holding it.
package payload

import (
	"bufio"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"strconv"
)

// Record is one element of a /filter body.
type Record struct {
	Name     string  `json:"name"`
	Language string  `json:"language"`
	ID       string  `json:"id"`
	Bio      string  `json:"bio"`
	Version  float64 `json:"version"`
}

// Filter writes a JSON array of records of at most size bytes (within one
// record, about 300 bytes, of it) to w. The same size and seed always give
// the same bytes. Memory use is constant whatever the size.
func Filter(w io.Writer, size, seed int64) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := each(size, seed, func(_ Record, enc []byte) error {
		_, err := bw.Write(enc)
		return err
	}); err != nil {
		return err
	}
	return bw.Flush()
}

// Records calls fn with each record of the body that Filter(w, size, seed)
// writes, in order, without writing it.
func Records(size, seed int64, fn func(Record) error) error {
	return each(size, seed, func(r Record, _ []byte) error {
		if r.ID == "" { // the array's closing bracket
			return nil
		}
		return fn(r)
	})
}

// FilterExpected returns what a conforming server answers to
// POST /filter?min_version=minVersion with the body Filter(w, size, seed):
// the records with Version > minVersion, in order. It holds them all, so use
// it for bodies of a few MB; count with Records for larger ones.
func FilterExpected(size, seed int64, minVersion float64) ([]Record, error) {
	out := []Record{}
	err := Records(size, seed, func(r Record) error {
		if r.Version > minVersion {
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// each generates the body and calls fn with every piece in order: the
// opening bracket and the first record, then ",record" pieces, then the
// closing bracket (with a zero Record). The pieces' lengths add up to at most
// size, and never less than 2 ("[]").
func each(size, seed int64, fn func(Record, []byte) error) error {
	g := newRecordGen(seed)
	var buf []byte
	written := int64(1) // "["
	first := true
	for {
		r := g.next()
		buf = buf[:0]
		if first {
			buf = append(buf, '[')
		} else {
			buf = append(buf, ',')
		}
		buf = appendRecord(buf, r)
		piece := int64(len(buf))
		if first {
			piece-- // the bracket is already counted
		}
		if written+piece+1 > size { // +1 for the closing bracket
			break
		}
		if err := fn(r, buf); err != nil {
			return err
		}
		written += piece
		first = false
	}
	if first {
		return fn(Record{}, []byte("[]"))
	}
	return fn(Record{}, []byte("]"))
}

// recordGen draws realistic records from a seeded generator. Its output is
// part of the contract's tests: changing the draw order changes every body.
type recordGen struct {
	rng *rand.Rand
	id  [8]byte
}

func newRecordGen(seed int64) *recordGen {
	return &recordGen{rng: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

func (g *recordGen) next() Record {
	r := g.rng
	var rec Record
	rec.Name = firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))]
	rec.Language = languages[r.IntN(len(languages))]
	for i := range g.id {
		g.id[i] = byte(r.Uint32())
	}
	rec.ID = hex.EncodeToString(g.id[:])
	rec.Bio = g.bio(113 + r.IntN(188)) // 113..300: see bio
	// One decimal, as in the records the published experiment filtered; that
	// puts exact 5.0 values in every body, so a server that filters with >=
	// instead of > is caught.
	rec.Version = float64(r.IntN(101)) / 10
	return rec
}

// bio returns lorem-ipsum sentences of at most limit bytes. It stops before
// the word that would pass limit (keeping a byte for the final period), and
// words are at most 12 bytes, so the bio is at least limit-13 bytes: a limit
// in 113..300 keeps every bio within 100..300.
func (g *recordGen) bio(limit int) string {
	b := make([]byte, 0, limit)
	capital, words := true, 0
	for {
		w := loremWords[g.rng.IntN(len(loremWords))]
		if len(b) > 0 && len(b)+1+len(w)+1 > limit {
			break
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		start := len(b)
		b = append(b, w...)
		if capital {
			b[start] -= 'a' - 'A'
			capital = false
		}
		words++
		if words >= 4 && g.rng.IntN(6) == 0 && len(b)+2 < limit {
			b = append(b, '.')
			capital, words = true, 0
		}
	}
	if b[len(b)-1] != '.' {
		b = append(b, '.')
	}
	return string(b)
}

func appendRecord(b []byte, r Record) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, r.Name)
	b = append(b, `,"language":`...)
	b = appendString(b, r.Language)
	b = append(b, `,"id":`...)
	b = appendString(b, r.ID)
	b = append(b, `,"bio":`...)
	b = appendString(b, r.Bio)
	b = append(b, `,"version":`...)
	b = strconv.AppendFloat(b, r.Version, 'f', -1, 64)
	return append(b, '}')
}

// appendString appends s as a JSON string. The word lists hold no character
// that needs escaping, but the escaping keeps the output valid if they grow one.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
