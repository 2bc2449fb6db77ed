// GET /time: a delay waits without blocking other requests; work blocks a
// single-threaded server and costs it W ms of CPU time. Asserted by the order
// in which answers arrive, by lower bounds on the duration, and by the CPU
// time /proc counts, never by speed.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

// cpuSeconds is a process's user+system CPU time from /proc/<pid>/stat
// (fields 14 and 15, in clock ticks of 1/100 s).
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// sharedCPU pins every thread of pid to the last CPU this process may use,
// with a busy shell loop pinned beside it, and returns a function that
// stops the loop.
function sharedCPU(pid) {
  const allowed = readFileSync('/proc/self/status', 'utf8').match(/^Cpus_allowed_list:\s*(\S+)/m)[1];
  const cpu = allowed.split(/[,-]/).pop();
  const busy = spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
  execFileSync('taskset', ['-p', '-c', cpu, String(busy.pid)], { stdio: 'ignore' });
  return () => busy.kill('SIGKILL');
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

    // With a wall-clock loop, a server that gets half of its CPU would burn
    // half the work. Generous bounds: /proc counts in 10 ms ticks, and the
    // server also parses HTTP and collects garbage.
    test('work costs W ms of CPU on a CPU shared with a busy process', { skip: process.platform !== 'linux' }, async () => {
      const stopBusy = sharedCPU(server.pid);
      try {
        const work = 200;
        const requests = 3;
        const before = cpuSeconds(server.pid);
        for (let i = 0; i < requests; i++) await took(server.url, `/time?work=${work}`);
        const perRequest = ((cpuSeconds(server.pid) - before) / requests) * 1000;
        assert.ok(
          perRequest >= work * 0.9 && perRequest <= work * 1.5,
          `node-${app} used ${perRequest.toFixed(0)} ms of CPU per work=${work} request, want about ${work} (0.9x..1.5x)`,
        );
      } finally {
        stopBusy();
      }
    });
  });
}
