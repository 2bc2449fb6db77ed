// The launcher: THREADS=N gives a node:cluster of N workers, CLUSTER=pm2
// serves through pm2-runtime, SIGTERM stops everything, and a worker that
// dies stops the server instead of being replaced.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';

import { descendants, request, start } from '../harness.js';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('THREADS=2 runs a primary and two workers, and SIGTERM stops them all', async (t) => {
  const server = await start('http', { THREADS: '2' });
  t.after(() => server.stop());
  assert.match(server.stdout, /^restbench-server id=node-http pid=\d+ threads=2 gomaxprocs=- listening=127\.0\.0\.1:\d+$/m);
  const workers = descendants(server.pid);
  assert.equal(workers.length, 2, `processes under the primary: ${workers}`);
  assert.equal((await request(server.url, { path: '/status' })).status, 200);
  const { code } = await server.stop();
  assert.equal(code, 0);
  await sleep(100);
  assert.deepEqual(workers.filter(alive), []);
});

test('a dead cluster worker stops the server rather than being replaced', async (t) => {
  const server = await start('express', { THREADS: '2' });
  t.after(() => server.stop());
  process.kill(descendants(server.pid)[0], 'SIGKILL');
  const { code } = await server.exited;
  assert.equal(code, 1);
  assert.match(server.stderr, /no worker is replaced/);
});

test('CLUSTER=pm2 serves through pm2-runtime and leaves nothing behind', async (t) => {
  const homes = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('restbench-pm2-')));
  const before = homes();
  const server = await start('fastify', { CLUSTER: 'pm2', THREADS: '2' });
  t.after(() => server.stop());
  assert.equal((await request(server.url, { path: '/status' })).status, 200);
  const members = descendants(server.pid);
  // pm2-runtime (with PM2's daemon inside) and its two workers
  assert.equal(members.length, 3, `processes under the launcher: ${members}`);
  const created = [...homes()].filter((name) => !before.has(name));
  assert.equal(created.length, 1, 'PM2_HOME is a fresh temporary folder');
  await server.stop();
  await sleep(100);
  assert.deepEqual(members.filter(alive), []);
  assert.equal(existsSync(path.join(tmpdir(), created[0])), false, 'PM2_HOME is removed');
});

test('a bad THREADS value is refused with a hint', async () => {
  await assert.rejects(start('http', { THREADS: 'many' }), /THREADS=many: use a whole number/);
});
