// Settings every server reads from its environment (docs/contract.md), and
// the readiness line it prints once it serves.
import os from 'node:os';

export const APPS = ['http', 'express', 'fastify'];

// settings parses HOST, PORT, THREADS and BACKLOG, and throws an error that says how
// to fix a bad value.
export function settings(env = process.env) {
  const host = env.HOST || '127.0.0.1';
  const port = Number(env.PORT);
  if (!env.PORT || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT=${env.PORT ?? ''}: set PORT to the TCP port to listen on, e.g. PORT=8080`);
  }
  const raw = env.THREADS || '1';
  let threads;
  if (raw === 'auto') threads = os.availableParallelism();
  else if (/^\d+$/.test(raw) && Number(raw) >= 1) threads = Number(raw);
  else throw new Error(`THREADS=${raw}: use a whole number of processes (1 or more) or auto`);
  // BACKLOG sizes the listen queue; unset keeps Node's default (511).
  let backlog;
  if (env.BACKLOG) {
    if (!/^\d+$/.test(env.BACKLOG) || Number(env.BACKLOG) < 1) {
      throw new Error(`BACKLOG=${env.BACKLOG}: use a positive number of connections, e.g. 4096, or leave it unset for Node's 511`);
    }
    backlog = Number(env.BACKLOG);
  }
  return { host, port, threads, backlog, cluster: env.CLUSTER || '' };
}

// readyLine is the one line a server prints on stdout when it serves.
// threads is the number of serving processes (THREADS=auto resolved).
export function readyLine(app, { host, port, threads }) {
  const at = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return `restbench-server id=node-${app} pid=${process.pid} threads=${threads} gomaxprocs=- listening=${at}`;
}
