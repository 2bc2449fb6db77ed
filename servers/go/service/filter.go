package service

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
)

// DefaultMinVersion is min_version when the query does not give one.
const DefaultMinVersion = 5

// FilterBuffer is the output buffered before it goes to the client. Until
// the first buffer is full nothing has been sent, so a body that turns out
// malformed within it still gets a clean 400.
const FilterBuffer = 32 << 10

// Record is one element of the /filter body.
type Record struct {
	Name     string  `json:"name"`
	Language string  `json:"language"`
	ID       string  `json:"id"`
	Bio      string  `json:"bio"`
	Version  float64 `json:"version"`
}

// decimal is the grammar of min_version: a sign, digits with an optional
// point, an optional exponent.
var decimal = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// ParseMinVersion reads min_version: a finite number, DefaultMinVersion
// when absent.
func ParseMinVersion(q Query) (float64, error) {
	if !q.Has("min_version") {
		return DefaultMinVersion, nil
	}
	s := q.Get("min_version")
	v, err := strconv.ParseFloat(s, 64)
	// A decimal number as the Node servers read it: ParseFloat alone also
	// takes 0x1p3, Inf and 1_0.
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || !decimal.MatchString(s) {
		return 0, Errorf(http.StatusBadRequest, "min_version=%q is not a number (use e.g. min_version=5)", s)
	}
	return v, nil
}

// Filter copies the records of the JSON array read from r with
// Version > min to w, as a JSON array in the same order. It holds one
// record at a time, so memory does not grow with the body. A body that is
// not an array of records is a 400 *Error.
func Filter(w io.Writer, r io.Reader, min float64) error {
	dec := json.NewDecoder(r)
	if err := delim(dec, '['); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	kept := 0
	for dec.More() {
		var rec Record
		if err := dec.Decode(&rec); err != nil {
			return malformed(err)
		}
		if rec.Version <= min {
			continue
		}
		if kept > 0 {
			if _, err := io.WriteString(w, ","); err != nil {
				return err
			}
		}
		kept++
		if err := enc.Encode(&rec); err != nil {
			return err
		}
	}
	if err := delim(dec, ']'); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Errorf(http.StatusBadRequest, "malformed JSON: data after the closing ]")
	}
	_, err := io.WriteString(w, "]")
	return err
}

// delim reads the next token and checks that it is d.
func delim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return malformed(err)
	}
	if tok != d {
		return Errorf(http.StatusBadRequest, "malformed body: expected %q, found %v (send a JSON array of records)", d, tok)
	}
	return nil
}

// malformed makes a decoding error a 400, but keeps read errors (a client
// that went away) as they are.
func malformed(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &typ) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return Errorf(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	return fmt.Errorf("read body: %w", err)
}

// StreamFilter runs Filter into dst through a FilterBuffer-sized buffer.
// started reports whether any byte reached dst: when it is false the caller
// may still answer with an error status; when it is true the response is
// under way and a failure can only abort it.
func StreamFilter(dst io.Writer, src io.Reader, min float64) (started bool, err error) {
	sw := &startWriter{w: dst}
	bw := bufio.NewWriterSize(sw, FilterBuffer)
	err = Filter(bw, src, min)
	if err == nil {
		err = bw.Flush()
	}
	return sw.started, err
}

// startWriter records whether anything was written through it.
type startWriter struct {
	w       io.Writer
	started bool
}

func (s *startWriter) Write(p []byte) (int, error) {
	s.started = true
	return s.w.Write(p)
}
