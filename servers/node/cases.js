// The contract's table of cases (fixtures/contract-cases.json), which
// `restbench verify` and the Go servers' tests run too, and the judge of an
// answer. internal/contract/cases/cases.go is the Go reading of the same
// table: keep the two in step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { ROOT } from './harness.js';

// padded makes a body of exactly bytes bytes (see Padded in cases.go).
function padded({ bytes, fill }) {
  const [head, tail] = { object: ['{"a":1,"b":2,"pad":"', '"}'], string: ['"', '"'] }[fill] ?? [];
  if (fill === 'spaces') return Buffer.alloc(bytes, 0x20);
  if (head === undefined) throw new Error(`bodyPadded: fill "${fill}": use "object", "string" or "spaces"`);
  return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
}

// loadCases reads the table and gives each case its request body
// (undefined when it sends none).
export function loadCases() {
  const { cases } = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'contract-cases.json'), 'utf8'));
  return cases.map((c) => {
    let body;
    if (c.body !== undefined) body = c.body;
    if (c.bodyFixture) body = readFileSync(path.join(ROOT, 'fixtures', c.bodyFixture));
    if (c.bodyPadded) body = padded(c.bodyPadded);
    return { ...c, requestBody: body };
  });
}

// requestOf is the case's request, for harness.request.
export function requestOf(c) {
  const headers = { ...c.headers };
  if (c.requestBody !== undefined && !c.noContentType) headers['content-type'] = 'application/json';
  if (c.chunked) headers['transfer-encoding'] = 'chunked';
  return { method: c.method, path: c.path, headers, body: c.requestBody };
}

// verify asserts that res (from harness.request) answers c: status,
// Content-Encoding, Content-Type, the error body and the body. The Go judge
// also checks that integers are written as integers (10476, not 10476.0);
// JSON.stringify cannot write 10476.0, so a Node server cannot get it wrong.
export function verify(c, res) {
  assert.equal(res.status, c.status, res.body.toString().slice(0, 300));
  const ce = res.headers['content-encoding'];
  let { body } = res;
  if (c.encoding === 'gzip') {
    assert.equal(ce, 'gzip');
    body = gunzipSync(body);
  } else {
    assert.ok(ce === undefined || ce === 'identity', `Content-Encoding ${ce}, want none`);
  }
  assert.match(res.headers['content-type'] ?? '', /^application\/json\s*(;|$)/);
  const value = () => JSON.parse(body.toString('utf8'));
  if (c.status >= 400) {
    const { error } = value();
    assert.equal(typeof error, 'string', 'error bodies are {"error": "..."}');
    assert.ok(error.length > 0, 'error bodies are {"error": "<message>"}');
  }
  if (c.echo) assert.deepEqual(value(), JSON.parse(c.requestBody.toString('utf8')));
  if ('json' in c) assert.deepEqual(value(), c.json);
}
