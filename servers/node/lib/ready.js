// waitReady polls GET /status until the server answers 200, for launchers
// (PM2) that cannot tell when their workers listen.
import http from 'node:http';

const probe = (host, port) =>
  new Promise((resolve) => {
    const req = http.get({ host, port, path: '/status', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });

// waitReady resolves once host:port serves /status, and rejects when child
// exits first or timeoutMs pass.
export async function waitReady({ host, port }, child, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server exited before it served /status');
    if (await probe(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer on http://${host}:${port}/status after ${timeoutMs / 1000} s; see the output above`);
}
