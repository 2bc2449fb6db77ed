// Property-based tests (fast-check) of what the Node servers decode from
// untrusted input: the rules of /sum and of the /time and /filter query
// values, checked on any input against the contract's own statement of them
// (the same oracles as the Go servers' fuzz targets,
// servers/go/service/fuzz_test.go), and the /echo, /sum and /filter bodies
// sent to each real server: an answer is always 200 or a JSON 400/413,
// never a crash. The seed is fixed, so a failure repeats; fast-check
// prints the smallest input it found.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';

import { json, request, start } from '../harness.js';
import { HTTPError, sum, timeParams } from '../lib/contract.js';
import { minVersion } from '../lib/filter.js';
import { APPS } from '../lib/settings.js';

const SEED = 20;

// throws400 runs fn and says whether it threw the contract's 400; any other
// exception fails the property.
function throws400(fn) {
  try {
    fn();
    return false;
  } catch (err) {
    assert.ok(err instanceof HTTPError && err.status === 400, `threw ${err}, want a 400 HTTPError`);
    return true;
  }
}

// A value of delay or work: digits that may be valid, or anything.
const timeValue = fc.oneof(fc.nat({ max: 20000 }).map(String), fc.stringMatching(/^[-+0-9.e ]{0,8}$/), fc.string());

test('sum: a 400 unless a and b are numbers, and then their sum', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), fc.record({ a: fc.jsonValue(), b: fc.jsonValue() }), fc.record({ a: fc.double(), b: fc.integer() })), (body) => {
      const ok = body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.a === 'number' && typeof body.b === 'number';
      if (throws400(() => sum(body))) return !ok;
      return ok && Object.is(sum(body).result, body.a + body.b);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

test('timeParams: accepts exactly the digits 0..10000', () => {
  fc.assert(
    fc.property(fc.option(timeValue, { nil: undefined }), fc.option(timeValue, { nil: undefined }), (delay, work) => {
      const q = new URLSearchParams();
      if (delay !== undefined) q.set('delay', delay);
      if (work !== undefined) q.set('work', work);
      const valid = (v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) <= 10000);
      if (throws400(() => timeParams(q))) return !(valid(delay) && valid(work));
      const p = timeParams(q);
      return valid(delay) && valid(work) && p.delay === Number(delay ?? 0) && p.work === Number(work ?? 0);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

test('minVersion: a finite decimal number or a 400', () => {
  const decimal = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  fc.assert(
    fc.property(fc.oneof(fc.double().map(String), fc.stringMatching(/^[-+0-9.eE]{0,8}$/), fc.string()), (value) => {
      const valid = decimal.test(value) && Number.isFinite(Number(value));
      if (throws400(() => minVersion(value))) return !valid;
      return valid && minVersion(value) === Number(value);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

// bodies are JSON texts, valid or cut or with a byte changed.
const bodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
  fc.array(fc.record({ name: fc.string(), version: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()) })).map((v) => JSON.stringify(v)),
  fc.tuple(fc.jsonValue().map((v) => JSON.stringify(v) ?? ''), fc.nat(), fc.string({ maxLength: 2 })).map(([s, at, ins]) => s.slice(0, at % (s.length + 1)) + ins + s.slice(at % (s.length + 1) + 1)),
);

for (const app of APPS) {
  describe(`node-${app} bodies`, () => {
    let server;
    before(async () => {
      server = await start(app);
    });
    after(() => server?.stop());

    for (const path of ['/echo', '/echo/any', '/sum', '/filter']) {
      test(`POST ${path}: 200, or a JSON 400, for any body`, async () => {
        await fc.assert(
          fc.asyncProperty(bodies, fc.boolean(), async (body, chunked) => {
            const headers = { 'content-type': 'application/json' };
            if (chunked) headers['transfer-encoding'] = 'chunked';
            let res;
            try {
              res = await request(server.url, { method: 'POST', path, headers, body });
            } catch (err) {
              // /filter may abort a 200 it has started; nothing else may close.
              assert.equal(path, '/filter', `${err}`);
              return true;
            }
            assert.match(res.headers['content-type'] ?? '', /^application\/json/);
            if (res.status === 200) {
              json(res);
              return true;
            }
            assert.equal(res.status, 400, res.body.toString());
            assert.equal(typeof json(res).error, 'string');
            return true;
          }),
          { seed: SEED, numRuns: 150 },
        );
      });
    }

    test('the server still answers /status', async () => {
      assert.equal((await request(server.url, { path: '/status' })).status, 200);
    });
  });
}
