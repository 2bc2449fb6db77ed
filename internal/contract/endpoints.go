package contract

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// The positive cases of /status, /echo, /echo/any, /sum and /hello.

func checkStatus(ctx context.Context, t *Target) (string, error) {
	r, err := t.call(ctx, "GET", "/status", nil)
	if err != nil {
		return "", err
	}
	return "", expectJSON(r, 200, `{"status":"ok"}`)
}

func checkEcho(ctx context.Context, t *Target) (string, error) {
	body, err := t.fixture("echo-body.json")
	if err != nil {
		return "", err
	}
	r, err := t.call(ctx, "POST", "/echo", body)
	if err != nil {
		return "", err
	}
	if err := expectJSON(r, 200, body); err != nil {
		return "", fmt.Errorf("POST /echo with fixtures/echo-body.json: %w", err)
	}
	return fmt.Sprintf("%d bytes back", len(r.body)), nil
}

func checkEchoAny(ctx context.Context, t *Target) (string, error) {
	fixture, err := t.fixture("echo-body.json")
	if err != nil {
		return "", err
	}
	// A generic value echoes any JSON, not only the fixture's schema.
	bodies := [][]byte{fixture, []byte(`{"x":[1,"two",null,true,{"y":1.5,"z":[]}],"ü":"ünïcødé"}`), []byte(`[1,2,3]`)}
	for _, body := range bodies {
		r, err := t.call(ctx, "POST", "/echo/any", body)
		if err != nil {
			return "", err
		}
		if err := expectJSON(r, 200, body); err != nil {
			return "", fmt.Errorf("POST /echo/any %s: %w", clip(body), err)
		}
	}
	return "", nil
}

func checkSum(ctx context.Context, t *Target) (string, error) {
	fixture, err := t.fixture("sum-body.json")
	if err != nil {
		return "", err
	}
	tests := []struct {
		body, want string // want "": 400
	}{
		{string(fixture), "10476"},
		{`{"a":1.5,"b":2}`, "3.5"},
		{`{"a":-3,"b":0.25}`, "-2.75"},
		{`{"a":0,"b":0}`, "0"},
		{`{"a":1}`, ""},
		{`{"b":1}`, ""},
		{`{}`, ""},
		{`{"a":"1","b":2}`, ""},
		{`{"a":null,"b":2}`, ""},
		{`{"a":true,"b":2}`, ""},
		{`[1,2]`, ""},
	}
	for _, tt := range tests {
		r, err := t.call(ctx, "POST", "/sum", []byte(tt.body))
		if err != nil {
			return "", err
		}
		if tt.want == "" {
			if err := expectError(r, 400); err != nil {
				return "", fmt.Errorf("POST /sum %s: %w", clip([]byte(tt.body)), err)
			}
			continue
		}
		if err := expectJSON(r, 200, `{"result":`+tt.want+`}`); err != nil {
			return "", fmt.Errorf("POST /sum %s: %w", clip([]byte(tt.body)), err)
		}
		// Integers in, an integer out: 10476, not 10476.0.
		var v struct{ Result json.Number }
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.UseNumber()
		if dec.Decode(&v) == nil && !strings.ContainsAny(tt.want, ".") && strings.ContainsAny(string(v.Result), ".eE") {
			return "", fmt.Errorf("POST /sum %s: result %s, want the integer %s", clip([]byte(tt.body)), v.Result, tt.want)
		}
	}
	return "", nil
}

func checkHello(ctx context.Context, t *Target) (string, error) {
	r, err := t.call(ctx, "GET", "/hello", nil)
	if err != nil {
		return "", err
	}
	if ce := r.header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return "", fmt.Errorf("GET /hello without Accept-Encoding: Content-Encoding %q, want none", ce)
	}
	return "", expectJSON(r, 200, `{"result":"Hello world"}`)
}

func checkGzip(ctx context.Context, t *Target) (string, error) {
	for _, ae := range []string{"gzip", "gzip, deflate"} {
		r, err := t.call(ctx, "GET", "/hello", nil, "Accept-Encoding", ae)
		if err != nil {
			return "", err
		}
		if err := expectStatus(r, 200); err != nil {
			return "", err
		}
		if ce := r.header.Get("Content-Encoding"); ce != "gzip" {
			return "", fmt.Errorf("GET /hello with Accept-Encoding %q: Content-Encoding %q, want gzip", ae, ce)
		}
		zr, err := gzip.NewReader(bytes.NewReader(r.body))
		if err != nil {
			return "", fmt.Errorf("GET /hello: body is not gzip: %w", err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			return "", fmt.Errorf("GET /hello: gunzip: %w", err)
		}
		r.body = plain
		if err := expectJSON(r, 200, `{"result":"Hello world"}`); err != nil {
			return "", fmt.Errorf("GET /hello, gunzipped: %w", err)
		}
	}
	// Compression is for /hello alone, so that other endpoints are measured
	// without a compression layer in the way.
	r, err := t.call(ctx, "GET", "/status", nil, "Accept-Encoding", "gzip")
	if err != nil {
		return "", err
	}
	if ce := r.header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return "", fmt.Errorf("GET /status with Accept-Encoding gzip: Content-Encoding %q, want none (compress /hello only)", ce)
	}
	return "", nil
}
