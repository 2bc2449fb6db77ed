package service

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
)

// SumResponse is the /sum answer. Result is a json.Number so that the sum
// of two integers is written as an integer (10476) and any other sum as a
// float (3.5).
type SumResponse struct {
	Result json.Number `json:"result"`
}

// Sum adds the numbers a and b of a /sum body. Both must be present JSON
// numbers: a string, null or missing field is 400.
func Sum(body []byte) (SumResponse, error) {
	// RawMessage, not json.Number: Unmarshal would accept "12" (a string)
	// into a json.Number, and the contract refuses strings.
	var in struct {
		A json.RawMessage `json:"a"`
		B json.RawMessage `json:"b"`
	}
	if err := decode(body, &in); err != nil {
		return SumResponse{}, err
	}
	a, err := number("a", in.A)
	if err != nil {
		return SumResponse{}, err
	}
	b, err := number("b", in.B)
	if err != nil {
		return SumResponse{}, err
	}
	sum, ok := add(a, b)
	if !ok {
		return SumResponse{}, Errorf(http.StatusBadRequest, "%s + %s does not fit in a float64", a, b)
	}
	return SumResponse{Result: sum}, nil
}

// number checks that raw is a JSON number literal.
func number(name string, raw json.RawMessage) (json.Number, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return "", Errorf(http.StatusBadRequest, "%q must be a number, got %s", name, orMissing(raw))
	}
	return json.Number(raw), nil
}

func orMissing(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	return string(raw)
}

// add keeps integers exact; it falls back to float64 for decimals,
// exponents and integer overflow. It fails only when the float sum is
// infinite (inputs near 1e308), which JSON cannot carry.
func add(a, b json.Number) (json.Number, bool) {
	x, errA := a.Int64()
	y, errB := b.Int64()
	if errA == nil && errB == nil {
		if s := x + y; (s > x) == (y > 0) {
			return json.Number(strconv.FormatInt(s, 10)), true
		}
	}
	fa, _ := a.Float64()
	fb, _ := b.Float64()
	f := fa + fb
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	// json.Marshal writes the float the way encoding/json writes any
	// float64 (3.5, 1e+21), so a float result looks like other JSON numbers.
	out, _ := json.Marshal(f)
	return json.Number(out), true
}
