// Test harness: starts a Node server as the manifest (servers/implementations.yaml)
// says, as a real child process on a free port, and sends it real requests.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// startCommand reads the start argv of node-<app> from the manifest, so that
// the tests run the servers exactly as restbench does.
export function startCommand(app) {
  const yaml = readFileSync(path.join(ROOT, 'servers', 'implementations.yaml'), 'utf8');
  const entry = yaml.split(/\n\s*- id: /).find((e) => e.startsWith(`node-${app}\n`));
  const start = entry?.match(/\n\s*start: \[(.*)\]/);
  if (!start) throw new Error(`servers/implementations.yaml: no "start: [...]" line for node-${app}`);
  return start[1].split(',').map((s) => s.trim());
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const running = new Set();
// Last resort for a test process that exits without stopping its servers.
process.on('exit', () => {
  for (const server of running) kill([server.pid, ...descendants(server.pid)], 'SIGKILL');
});

// start runs node-<app> with env added, waits for its readiness line, and
// returns the running server. The caller must call stop().
export async function start(app, env = {}) {
  const [, ...args] = startCommand(app);
  const port = await freePort();
  // Not detached: a Ctrl-C of the test run reaches the servers too.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { app, port, child, pid: child.pid, stdout: '', stderr: '', url: `http://127.0.0.1:${port}` };
  running.add(server);
  child.stderr.on('data', (d) => (server.stderr += d));
  server.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  server.stop = () => stop(server);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node-${app} printed no readiness line in 30 s:\n${server.stderr}`)), 30000);
    child.stdout.on('data', (d) => {
      server.stdout += d;
      if (/^restbench-server /m.test(server.stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`node-${app} exited (${signal ?? code}) before it was ready:\n${server.stderr}`));
    });
  }).catch(async (err) => {
    await stop(server);
    throw err;
  });
  return server;
}

function kill(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

// stop sends SIGTERM to the server, whose launcher stops its workers, and
// SIGKILL to it and every process under it if it is not gone in 5 s. It
// resolves with the launcher's exit, once no process under it is left.
async function stop(server) {
  kill([server.pid], 'SIGTERM');
  const timer = setTimeout(() => kill([server.pid, ...descendants(server.pid)], 'SIGKILL'), 5000);
  const result = await server.exited;
  clearTimeout(timer);
  running.delete(server);
  return result;
}

// processes maps the pid of every live process to its parent's pid.
function processes() {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command (which may hold spaces): state ppid ...
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') parent.set(Number(name), Number(ppid));
    } catch {
      // exited while we looked
    }
  }
  return parent;
}

// descendants lists the pids of the live processes under pid.
export function descendants(pid) {
  const parent = processes();
  const under = [];
  const isUnder = (p) => {
    for (let q = parent.get(p); q !== undefined && q > 1; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  for (const p of parent.keys()) if (isUnder(p)) under.push(p);
  return under;
}

// request sends one request on a fresh connection and resolves with status,
// headers and the raw body (never decompressed).
export function request(base, { method = 'GET', path: p = '/', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const json = (res) => JSON.parse(res.body.toString('utf8'));
