// Every endpoint and error case of the contract, on each Node server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';

import { ROOT, json, request, start } from '../harness.js';
import { APPS } from '../lib/settings.js';

const echoBody = readFileSync(path.join(ROOT, 'fixtures', 'echo-body.json'));
const sumBody = readFileSync(path.join(ROOT, 'fixtures', 'sum-body.json'));
const MiB = 1024 * 1024;
// A JSON string of exactly 1 MiB: the largest body /echo must accept.
const exactlyMiB = `"${'a'.repeat(MiB - 2)}"`;

const ok = (body) => ({ status: 200, body });
const fails = (status) => ({ status });

const cases = [
  { name: 'status', path: '/status', want: ok({ status: 'ok' }) },
  { name: 'hello', path: '/hello', want: ok({ result: 'Hello world' }) },
  { name: 'echo fixture', method: 'POST', path: '/echo', body: echoBody, want: ok(JSON.parse(echoBody)) },
  { name: 'echo/any fixture', method: 'POST', path: '/echo/any', body: echoBody, want: ok(JSON.parse(echoBody)) },
  { name: 'echo exactly 1 MiB', method: 'POST', path: '/echo/any', body: exactlyMiB, want: ok(JSON.parse(exactlyMiB)) },
  { name: 'echo without content-type', method: 'POST', path: '/echo', body: '{"x":[1,2]}', type: null, want: ok({ x: [1, 2] }) },
  { name: 'sum fixture', method: 'POST', path: '/sum', body: sumBody, want: ok({ result: 10476 }) },
  { name: 'sum floats', method: 'POST', path: '/sum', body: '{"a":1.5,"b":2}', want: ok({ result: 3.5 }) },
  { name: 'sum negative', method: 'POST', path: '/sum', body: '{"a":-3,"b":1}', want: ok({ result: -2 }) },
  { name: 'sum string field', method: 'POST', path: '/sum', body: '{"a":"1","b":2}', want: fails(400) },
  { name: 'sum missing field', method: 'POST', path: '/sum', body: '{"a":1}', want: fails(400) },
  { name: 'sum null field', method: 'POST', path: '/sum', body: '{"a":1,"b":null}', want: fails(400) },
  { name: 'sum array body', method: 'POST', path: '/sum', body: '[1,2]', want: fails(400) },
  { name: 'sum malformed', method: 'POST', path: '/sum', body: '{"a":1,', want: fails(400) },
  { name: 'echo malformed', method: 'POST', path: '/echo', body: '{"colors":[', want: fails(400) },
  { name: 'echo/any malformed', method: 'POST', path: '/echo/any', body: 'nope', want: fails(400) },
  { name: 'echo empty body', method: 'POST', path: '/echo', body: '', want: fails(400) },
  { name: 'echo 1 MiB + 1', method: 'POST', path: '/echo', body: `"${'a'.repeat(MiB - 1)}"`, want: fails(413) },
  { name: 'echo/any 2 MiB', method: 'POST', path: '/echo/any', body: Buffer.alloc(2 * MiB, 0x20), want: fails(413) },
  { name: 'sum 2 MiB chunked', method: 'POST', path: '/sum', body: Buffer.alloc(2 * MiB, 0x20), chunked: true, want: fails(413) },
  { name: 'time delay too big', path: '/time?delay=10001', want: fails(400) },
  { name: 'time negative work', path: '/time?work=-1', want: fails(400) },
  { name: 'time decimal', path: '/time?delay=1.5', want: fails(400) },
  { name: 'time not a number', path: '/time?work=abc', want: fails(400) },
  { name: 'time empty value', path: '/time?delay=', want: fails(400) },
  { name: 'GET on POST route', path: '/echo', want: { status: 405, allow: 'POST' } },
  { name: 'POST on GET route', method: 'POST', path: '/status', body: '{}', want: { status: 405, allow: 'GET, HEAD' } },
  { name: 'DELETE on /filter', method: 'DELETE', path: '/filter', want: { status: 405, allow: 'POST' } },
  { name: 'unknown path', path: '/nope', want: fails(404) },
  { name: 'unknown nested path', method: 'POST', path: '/echo/typed', body: '{}', want: fails(404) },
];

// trickle sends a chunked body of 48 chunks of 64 KiB (3 MiB), the first
// starting with head, 2 ms apart, and resolves with the response status once
// all of it was sent and the response was read. The server must answer
// while the body still arrives and must not reset the connection.
function trickle(url, path, head) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: 'POST', agent: false, headers: { 'transfer-encoding': 'chunked' } });
    req.on('error', reject);
    const answered = new Promise((res) => req.on('response', (r) => r.resume().on('end', () => res(r.statusCode))));
    (async () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      req.write(Buffer.concat([Buffer.from(head), chunk]));
      for (let i = 1; i < 48; i++) {
        await sleep(2);
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
      resolve(await answered);
    })().catch(reject);
  });
}

for (const app of APPS) {
  describe(`node-${app}`, () => {
    let server;
    before(async () => {
      server = await start(app);
    });
    after(() => server?.stop());

    for (const c of cases) {
      test(c.name, async () => {
        const headers = {};
        if (c.body !== undefined && c.type !== null) headers['content-type'] = 'application/json';
        if (c.chunked) headers['transfer-encoding'] = 'chunked';
        const res = await request(server.url, { method: c.method, path: c.path, headers, body: c.body });
        assert.equal(res.status, c.want.status, res.body.toString().slice(0, 300));
        assert.match(res.headers['content-type'] ?? '', /^application\/json/);
        const body = json(res);
        if (c.want.status === 200) {
          assert.deepEqual(body, c.want.body);
        } else {
          assert.equal(typeof body.error, 'string', 'error bodies are {"error": "..."}');
          assert.ok(body.error.length > 0);
        }
        if (c.want.allow) assert.equal(res.headers.allow, c.want.allow);
      });
    }

    test('hello is gzipped when asked', async () => {
      const res = await request(server.url, { path: '/hello', headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.deepEqual(JSON.parse(gunzipSync(res.body)), { result: 'Hello world' });
    });

    test('only hello is gzipped', async () => {
      for (const p of ['/status', '/time']) {
        const res = await request(server.url, { path: p, headers: { 'accept-encoding': 'gzip' } });
        assert.equal(res.headers['content-encoding'], undefined, p);
      }
      const refused = await request(server.url, { path: '/hello', headers: { 'accept-encoding': 'gzip;q=0' } });
      assert.equal(refused.headers['content-encoding'], undefined, 'gzip;q=0 refuses gzip');
    });

    test('time answers the epoch in milliseconds', async () => {
      const before = Date.now();
      const res = await request(server.url, { path: '/time' });
      const { now } = json(res);
      assert.ok(Number.isInteger(now) && now >= before && now <= Date.now(), `now=${now}`);
    });

    test('a refused body may keep arriving: 413 and 400 are read, not reset', async () => {
      assert.equal(await trickle(server.url, '/echo', '"'), 413);
      assert.equal(await trickle(server.url, '/filter', '[{"name":'), 400);
    });

    test('the server survives all of the above', async () => {
      const res = await request(server.url, { path: '/status' });
      assert.equal(res.status, 200);
      assert.equal(server.child.exitCode, null);
    });
  });
}
