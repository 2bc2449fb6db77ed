// Launcher of the Node servers: node main.js <http|express|fastify>.
//
// THREADS=1 serves from this process. THREADS=N>1 or auto forks N workers
// with node:cluster that share the port. CLUSTER=pm2 runs this same file
// under PM2's cluster mode (pm2-runtime, in the foreground). Workers are
// never replaced: a worker that dies stops the whole server, so that a crash
// during a benchmark shows instead of being hidden by a restart.
import cluster from 'node:cluster';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { APPS, readyLine, settings } from './lib/settings.js';
import { waitReady } from './lib/ready.js';

// Under PM2 the app name comes through the environment: PM2 workers see
// pm2-runtime's arguments, not the launcher's.
const app = process.env.RESTBENCH_APP || process.argv[2];
if (!APPS.includes(app)) {
  console.error(`usage: node main.js <${APPS.join('|')}> (got ${app ?? 'nothing'})`);
  process.exit(2);
}

let config;
try {
  config = settings();
} catch (err) {
  console.error(`node-${app}: ${err.message}`);
  process.exit(2);
}

if (cluster.isWorker) {
  // A worker of node:cluster, or of PM2 (whose cluster mode is node:cluster
  // too): it serves, and its supervisor prints the readiness line.
  await serve();
} else if (config.cluster === 'pm2') {
  await runPM2();
} else if (config.threads > 1) {
  runCluster();
} else {
  const server = await serve();
  // With PORT=0 the kernel picked the port: report the real one.
  console.log(readyLine(app, { ...config, port: server.address().port }));
}

// serve listens with the app. SIGTERM keeps Node's default action, which
// ends the process at once even while /time work holds the event loop.
async function serve() {
  const { listen } = await import(`./apps/${app}.js`);
  try {
    return await listen(config.host, config.port);
  } catch (err) {
    console.error(`node-${app}: listen on ${config.host}:${config.port}: ${err.message}; pick another PORT or HOST`);
    process.exit(1);
  }
}

function runCluster() {
  let listening = 0;
  let stopping = false;
  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers)) w.process.kill('SIGTERM');
    setTimeout(() => process.exit(code), 2000).unref();
    cluster.on('exit', () => Object.keys(cluster.workers).length === 0 && process.exit(code));
  };
  // Workers that listen on PORT=0 share one port the primary picked; the
  // line reports it.
  cluster.on('listening', (worker, address) => {
    if (++listening === config.threads) console.log(readyLine(app, { ...config, port: address.port }));
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`node-${app}: worker ${worker.process.pid} exited (${signal ?? code}); stopping the server, no worker is replaced`);
    stop(1);
  });
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  for (let i = 0; i < config.threads; i++) cluster.fork();
}

// runPM2 runs pm2-runtime from node_modules in the foreground, with its home
// (logs, sockets) in a temporary folder that is removed when it exits, so
// nothing is left behind. pm2-runtime keeps PM2's daemon in its own process.
async function runPM2() {
  // PM2 tells its launcher nothing about its workers' sockets, so with
  // PORT=0 the launcher picks the port itself: the one place a free port is
  // chosen ahead of the listen (a small window another process could take it
  // in; the start then fails and says so).
  if (config.port === 0) config.port = await freePort(config.host);
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve('pm2/package.json')), 'bin', 'pm2-runtime');
  const home = mkdtempSync(path.join(os.tmpdir(), 'restbench-pm2-'));
  const args = [bin, 'start', fileURLToPath(import.meta.url), '--name', `node-${app}`, '-i', String(config.threads), '--no-autorestart'];
  // PM2's workers get this process's V8 flags, as node:cluster workers do.
  if (process.execArgv.length > 0) args.push('--node-args', process.execArgv.join(' '));
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PM2_HOME: home, RESTBENCH_APP: app, PORT: String(config.port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const cleanup = () => rmSync(home, { recursive: true, force: true });
  child.on('exit', (code, signal) => {
    cleanup();
    process.exit(code ?? (signal ? 1 : 0));
  });
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
  waitReady(config, child).then(
    () => console.log(readyLine(app, config)),
    (err) => console.error(`node-${app}: ${err.message}`),
  );
}

function freePort(host) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
