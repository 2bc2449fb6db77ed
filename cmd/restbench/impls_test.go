package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"restbench/internal/impl"
)

// TestImplsJSON: `restbench impls --json` is the manifest as restbench
// reads it (servers/node/harness.js starts the Node servers from it).
func TestImplsJSON(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	err = cmdImpls(context.Background(), []string{"--json"})
	os.Stdout = stdout
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(r)
	var got impl.Manifest
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	want, err := manifestFromCwd()
	if err != nil {
		t.Fatal(err)
	}
	if got.Root != want.Root || len(got.Impls) != len(want.Impls) {
		t.Fatalf("root %q, %d implementations; want %q, %d", got.Root, len(got.Impls), want.Root, len(want.Impls))
	}
	node, err := got.Get("node-http")
	if err != nil || len(node.Start) < 2 || node.Start[0] != "node" || node.Language != "node" {
		t.Errorf("node-http: %+v, %v", node, err)
	}
}
