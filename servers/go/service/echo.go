package service

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// MaxBodyBytes is the largest body /echo, /echo/any and /sum accept (1 MiB);
// larger bodies get 413. /filter streams and has no limit.
const MaxBodyBytes = 1 << 20

// Colors is the schema of fixtures/echo-body.json, the /echo body.
type Colors struct {
	Colors []Color `json:"colors"`
}

// Color is one entry of Colors. Type is absent from some entries of the
// fixture, so it is omitted when empty: the echo must be JSON-equal to the
// request.
type Color struct {
	Color    string `json:"color"`
	Category string `json:"category"`
	Type     string `json:"type,omitempty"`
	Code     Code   `json:"code"`
}

// Code is a colour's code. RGBA is numeric: 0..255 channels and an alpha
// that may be fractional, hence float64.
type Code struct {
	RGBA []float64 `json:"rgba"`
	Hex  string    `json:"hex"`
}

// ReadBody reads a body of at most MaxBodyBytes; a longer one is ErrTooLarge.
// contentLength is the declared length (-1 when unknown), checked first so
// that an oversized upload is refused before it is read.
func ReadBody(r io.Reader, contentLength int64) ([]byte, error) {
	if contentLength > MaxBodyBytes {
		return nil, ErrTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, ErrTooLarge
	case err != nil:
		return nil, Errorf(http.StatusBadRequest, "read body: %v", err)
	case len(b) > MaxBodyBytes:
		return nil, ErrTooLarge
	}
	return b, nil
}

// DecodeColors decodes an /echo body into the typed structure.
func DecodeColors(body []byte) (Colors, error) {
	var c Colors
	return c, decode(body, &c)
}

// DecodeAny decodes an /echo/any body into a generic value.
func DecodeAny(body []byte) (any, error) {
	var v any
	return v, decode(body, &v)
}

// decode is json.Unmarshal with contract errors: anything that is not one
// JSON value of the right shape is 400.
func decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return Errorf(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	return nil
}
