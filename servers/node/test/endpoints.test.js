// Every case of the contract's table (fixtures/contract-cases.json), and what
// the Node servers promise beyond it, on each Node server.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { loadCases, requestOf, verify } from '../cases.js';
import { json, request, start } from '../harness.js';
import { APPS } from '../lib/settings.js';

const cases = loadCases();

// Beyond the contract, the Node servers promise an Allow header on a 405
// (the contract only welcomes one) and honour gzip;q=0.
const allow = [
  { method: 'GET', path: '/echo', allow: 'POST' },
  { method: 'POST', path: '/status', body: '{}', headers: { 'content-type': 'application/json' }, allow: 'GET, HEAD' },
  { method: 'DELETE', path: '/filter', allow: 'POST' },
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
      test(c.name, async () => verify(c, await request(server.url, requestOf(c))));
    }

    for (const a of allow) {
      test(`${a.method} ${a.path} says Allow: ${a.allow}`, async () => {
        const res = await request(server.url, a);
        assert.equal(res.status, 405);
        assert.equal(res.headers.allow, a.allow);
      });
    }

    test('gzip;q=0 refuses gzip', async () => {
      const refused = await request(server.url, { path: '/hello', headers: { 'accept-encoding': 'gzip;q=0' } });
      assert.equal(refused.headers['content-encoding'], undefined);
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
