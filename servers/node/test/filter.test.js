// POST /filter on each Node server: correctness on a small generated array,
// streamed both ways. Its error cases are rows of fixtures/contract-cases.json
// (endpoints.test.js runs them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { json, request, start } from '../harness.js';
import { APPS } from '../lib/settings.js';

// records makes n deterministic records whose versions cover 0..10 in steps
// of 0.25, so that 5 itself (not > 5) and fractions on both sides occur.
function records(n) {
  const languages = ['Go', 'JavaScript', 'Rust', 'Python'];
  return Array.from({ length: n }, (_, i) => ({
    name: `Person ${i}`,
    language: languages[i % languages.length],
    id: (0x1000000000000000n + BigInt(i) * 7919n).toString(16),
    bio: `Writes "${languages[i % 4]}" — and ünïcode. `.repeat(4 + (i % 5)),
    version: (i % 41) * 0.25,
  }));
}

const body = records(400);
const expect = (min) => body.filter((r) => r.version > min);

const cases = [
  { name: 'default min_version is 5', path: '/filter', want: expect(5) },
  { name: 'min_version=7.5', path: '/filter?min_version=7.5', want: expect(7.5) },
  { name: 'min_version=-1 keeps all', path: '/filter?min_version=-1', want: body },
  { name: 'min_version=10 keeps none', path: '/filter?min_version=10', want: [] },
  { name: 'chunked upload', path: '/filter?min_version=2', chunked: true, want: expect(2) },
];

for (const app of APPS) {
  describe(`node-${app} /filter`, () => {
    let server;
    before(async () => {
      server = await start(app);
    });
    after(() => server?.stop());

    for (const c of cases) {
      test(c.name, async () => {
        const headers = { 'content-type': 'application/json' };
        if (c.chunked) headers['transfer-encoding'] = 'chunked';
        const res = await request(server.url, { method: 'POST', path: c.path, headers, body: JSON.stringify(body) });
        assert.equal(res.status, 200, res.body.toString().slice(0, 300));
        assert.match(res.headers['content-type'], /^application\/json/);
        assert.deepEqual(json(res), c.want);
      });
    }

    test('only the five fields are written back', async () => {
      const extra = [{ name: 'a', language: 'Go', id: '00000000000000ff', bio: 'b', version: 9, secret: 'x' }];
      const res = await request(server.url, { method: 'POST', path: '/filter', body: JSON.stringify(extra) });
      assert.deepEqual(Object.keys(json(res)[0]), ['name', 'language', 'id', 'bio', 'version']);
    });

    test('the server survives all of the above', async () => {
      assert.equal((await request(server.url, { path: '/status' })).status, 200);
    });
  });
}
