// Test harness: starts a Node server as restbench does (internal/server): the
// manifest's command and environment, read from `restbench impls --json`,
// PORT=0 and the port taken from the readiness line (docs/contract.md), as a
// real child process; and sends it real requests.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let manifest;

// implementation returns node-<app> from the manifest as restbench reads it,
// so that the tests run the servers exactly as restbench does.
export function implementation(app) {
  if (!manifest) {
    const bin = path.join(ROOT, 'bin', 'restbench');
    try {
      manifest = JSON.parse(execFileSync(bin, ['impls', '--json'], { cwd: ROOT, encoding: 'utf8' }));
    } catch (err) {
      throw new Error(`${bin} impls --json: ${err.message} (build it first: make restbench)`);
    }
  }
  const im = manifest.implementations.find((i) => i.id === `node-${app}`);
  if (!im) throw new Error(`servers/implementations.yaml has no node-${app}`);
  return im;
}

// The variables of this process a server gets, as internal/server passes
// them on: nothing else of the test's environment reaches it.
const INHERITED = ['PATH', 'HOME', 'LANG', 'TMPDIR'];

const running = new Set();
// Last resort for a test process that exits without stopping its servers.
process.on('exit', () => {
  for (const server of running) kill([server.pid, ...descendants(server.pid)], 'SIGKILL');
});

// start runs node-<app> with env added, waits for its readiness line, and
// returns the running server, with the port that line names. The caller
// must call stop().
export async function start(app, env = {}) {
  const im = implementation(app);
  const [, ...args] = im.start; // the test's own node in place of `node`
  const inherited = Object.fromEntries(INHERITED.filter((k) => k in process.env).map((k) => [k, process.env[k]]));
  // Not detached: a Ctrl-C of the test run reaches the servers too.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...inherited, ...im.env, ...env, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { app, child, pid: child.pid, stdout: '', stderr: '' };
  running.add(server);
  child.stderr.on('data', (d) => (server.stderr += d));
  server.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  server.stop = () => stop(server);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node-${app} printed no readiness line in 30 s:\n${server.stderr}`)), 30000);
    child.stdout.on('data', (d) => {
      server.stdout += d;
      const line = server.stdout.match(/^restbench-server .*$/m);
      if (!line) return;
      clearTimeout(timer);
      const port = Number(line[0].match(/ listening=\S*:(\d+)/)?.[1]);
      if (!port) reject(new Error(`node-${app}: no port in the readiness line's listening= (${line[0]})`));
      Object.assign(server, { port, url: `http://127.0.0.1:${port}` });
      resolve();
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
