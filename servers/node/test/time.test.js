// GET /time: a delay waits without blocking other requests; work blocks a
// single-threaded server. Asserted by the order in which answers arrive, and
// by lower bounds on the duration, never by speed.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { request, start } from '../harness.js';
import { APPS } from '../lib/settings.js';

// race sends a slow /time request, then /status once the slow one has surely
// arrived, and says which answer came first.
async function race(url, slowPath) {
  const order = [];
  const slow = request(url, { path: slowPath }).then((res) => order.push('time') && res);
  await sleep(250);
  const status = request(url, { path: '/status' }).then((res) => order.push('status') && res);
  const [slowRes, statusRes] = await Promise.all([slow, status]);
  assert.equal(slowRes.status, 200);
  assert.equal(statusRes.status, 200);
  return order;
}

async function took(url, path) {
  const t0 = performance.now();
  const res = await request(url, { path });
  assert.equal(res.status, 200);
  return performance.now() - t0;
}

for (const app of APPS) {
  describe(`node-${app} /time`, () => {
    let server;
    before(async () => {
      server = await start(app);
    });
    after(() => server?.stop());

    test('delay does not block other requests', async () => {
      assert.deepEqual(await race(server.url, '/time?delay=700'), ['status', 'time']);
    });

    test('work blocks the event loop', async () => {
      assert.deepEqual(await race(server.url, '/time?work=600'), ['time', 'status']);
    });

    test('delay and work last at least as asked', async () => {
      assert.ok((await took(server.url, '/time?delay=150')) >= 149);
      assert.ok((await took(server.url, '/time?work=150')) >= 149);
      assert.ok((await took(server.url, '/time?delay=75&work=75')) >= 149);
    });
  });
}
