// Launcher of the Node servers: node main.js <http|express|fastify>.
//
// THREADS=1 serves from this process. THREADS=N>1 or auto forks N workers
// with node:cluster that share the port. CLUSTER=pm2 runs this same file
// under PM2's cluster mode (pm2-runtime, in the foreground). Workers are
// never replaced: a worker that dies stops the whole server, so that a crash
// during a benchmark shows instead of being hidden by a restart.
import cluster from 'node:cluster';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  // too): it serves, and its supervisor prints the readiness line. Under PM2
  // it also tells the launcher the port, which PM2 does not pass on.
  const server = await serve();
  const dir = process.env.RESTBENCH_PORTS_DIR;
  if (dir) {
    // Whole or not at all: the launcher may read while this writes.
    const file = path.join(dir, `restbench-port.${process.pid}`);
    writeFileSync(`${file}.tmp`, String(server.address().port));
    renameSync(`${file}.tmp`, file);
  }
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
    return await listen(config.host, config.port, config.backlog);
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
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve('pm2/package.json')), 'bin', 'pm2-runtime');
  const home = mkdtempSync(path.join(os.tmpdir(), 'restbench-pm2-'));
  const args = [bin, 'start', fileURLToPath(import.meta.url), '--name', `node-${app}`, '-i', String(config.threads), '--no-autorestart'];
  // PM2's workers get this process's V8 flags, as node:cluster workers do.
  if (process.execArgv.length > 0) args.push('--node-args', process.execArgv.join(' '));
  const child = spawn(process.execPath, args, {
    // PM2 tells its launcher nothing about its workers' sockets: each worker
    // writes the port it listens on into the launcher's folder. With PORT=0
    // the workers share the one port their cluster primary (PM2's daemon)
    // got from the kernel, as node:cluster's do; no port is picked ahead.
    env: { ...process.env, PM2_HOME: home, RESTBENCH_APP: app, RESTBENCH_PORTS_DIR: home, PORT: String(config.port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const cleanup = () => rmSync(home, { recursive: true, force: true });
  child.on('exit', (code, signal) => {
    cleanup();
    process.exit(code ?? (signal ? 1 : 0));
  });
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
  const ready = async () => {
    const port = await waitPort(home, config.threads, child);
    await waitReady({ ...config, port }, child);
    return port;
  };
  ready().then(
    (port) => console.log(readyLine(app, { ...config, port })),
    (err) => console.error(`node-${app}: ${err.message}`),
  );
}

// waitPort resolves with the port PM2's workers wrote into dir once all n
// have, and rejects when they listen on different ports.
async function waitPort(dir, n, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('pm2-runtime exited before its workers listened');
    const files = readdirSync(dir).filter((f) => /^restbench-port\.\d+$/.test(f));
    if (files.length >= n) {
      const ports = new Set(files.map((f) => Number(readFileSync(path.join(dir, f), 'utf8'))));
      if (ports.size !== 1) throw new Error(`PM2's workers listen on different ports (${[...ports].join(', ')})`);
      return [...ports][0];
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not all ${n} PM2 workers listened after ${timeoutMs / 1000} s; see the output above`);
}
