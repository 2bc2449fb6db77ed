// The behaviour every Node server shares (docs/contract.md): routes, input
// rules for /sum and /time, the CPU work of /time, and the /hello body. The
// framework apps only route requests here and send what comes back, so the
// three servers do exactly the same work and differ only in their framework.
import { gzipSync } from 'node:zlib';

// BODY_LIMIT is the largest body /echo, /echo/any and /sum accept (1 MiB);
// a larger one is answered 413. /filter streams and has no limit.
export const BODY_LIMIT = 1024 * 1024;

// ROUTES maps each path of the contract to the methods it serves, so that
// every app answers 405 (with Allow) on a known path and 404 elsewhere.
export const ROUTES = {
  '/status': ['GET', 'HEAD'],
  '/hello': ['GET', 'HEAD'],
  '/time': ['GET', 'HEAD'],
  '/echo': ['POST'],
  '/echo/any': ['POST'],
  '/sum': ['POST'],
  '/filter': ['POST'],
  '/runtime': ['GET'],
};

// HTTPError carries the status of a client error to the app's error reply.
export class HTTPError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// notRouted returns the error for a request no route took: 405 when the path
// exists with other methods, 404 otherwise.
export function notRouted(method, path) {
  const allowed = ROUTES[path];
  if (allowed) {
    const err = new HTTPError(405, `${method} is not allowed on ${path}; use ${allowed.join(' or ')}`);
    err.allow = allowed.join(', ');
    return err;
  }
  return new HTTPError(404, `no route for ${path}; see docs/contract.md for the endpoints`);
}

// errorBody is the JSON body of every error response.
export function errorBody(message) {
  return JSON.stringify({ error: message });
}

// sum validates a decoded /sum body and returns the response object. Both
// fields must be JSON numbers; the sum of two integers stays an integer
// because JavaScript numbers print without a fraction when they have none.
export function sum(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HTTPError(400, 'body must be a JSON object like {"a":1923,"b":8553}');
  }
  for (const field of ['a', 'b']) {
    if (typeof body[field] !== 'number') {
      throw new HTTPError(400, `field "${field}" must be a JSON number, e.g. {"a":1923,"b":8553}`);
    }
  }
  return { result: body.a + body.b };
}

const MAX_MS = 10000;

// timeParams reads delay and work (whole milliseconds, 0..10000, default 0)
// from a query given as URLSearchParams or as a plain object of strings (the
// frameworks' parsed query). Decimals are refused so that every
// implementation agrees on what 1.5 means: nothing.
export function timeParams(query) {
  const get = (name) => (query instanceof URLSearchParams ? query.getAll(name) : [query[name]].flat().filter((v) => v !== undefined));
  const out = {};
  for (const name of ['delay', 'work']) {
    const values = get(name);
    if (values.length === 0) {
      out[name] = 0;
      continue;
    }
    const text = values[0];
    if (values.length > 1 || !/^\d{1,5}$/.test(text) || Number(text) > MAX_MS) {
      throw new HTTPError(400, `${name}=${values.join(',')}: use a whole number of milliseconds from 0 to ${MAX_MS}`);
    }
    out[name] = Number(text);
  }
  return out;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// sink keeps the last value of burnCPU alive so that no optimiser may drop
// the loop as dead code.
let sink = 0x9e3779b9;

// cpuMicros is the CPU time this process has used, in microseconds:
// process.cpuUsage (getrusage RUSAGE_SELF). Not process.threadCpuUsage
// (RUSAGE_THREAD): Linux brings a thread's own rusage up to date only at a
// scheduler tick or a context switch, so on this project's VMs it advanced
// in steps of 1-4 ms and burnCPU(1) ran for 2.4-4 ms. RUSAGE_SELF brings
// the calling thread's runtime up to date on every read: it advances by
// about 1 us per read (docs/benchmarks.md#the-work-clock). It counts the
// whole process, which is what a server costs: the event loop, and V8's
// GC thread if it runs. Each serving process has one event loop (cluster
// workers are processes), so no other request's work is counted. Node,
// Bun and Deno all have it.
const cpuMicros = () => { const { user, system } = process.cpuUsage(); return user + system; };

// burnCPU runs an integer mixing loop (xorshift and a multiply, the kind of
// arithmetic a hash does) until this process has spent ms milliseconds of
// CPU time. It blocks the calling thread (the event loop) exactly as a real
// computation would. CPU time, not wall time: a server that shares its CPU
// with another process still does ms of work per request (it takes
// longer), the same work as the Go servers do. It also lasts at least ms of
// wall time, so that an idle core's single request takes W, as verify
// checks. The loop allocates nothing: hashing with node:crypto left garbage
// whose collection ran after the clock had passed the end, work nobody
// asked for (createHash 1.15-1.30 ms of CPU per work=1 on node@24; the
// one-shot hash() 1.01 there but 1.13-1.56 on Deno, whose hash() builds
// objects). With integers: 1.001-1.002 ms on node@20, node@24, Bun and
// Deno alike (docs/benchmarks.md#the-work-clock).
export function burnCPU(ms) {
  const end = cpuMicros() + ms * 1000;
  const wallEnd = performance.now() + ms;
  let x = sink | 0;
  do {
    // 256 rounds between clock reads: about 1 us of work to each 1 us read.
    for (let i = 0; i < 256; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x = Math.imul(x, 0x9e3779b1) | 0;
    }
  } while (cpuMicros() < end || performance.now() < wallEnd);
  sink = x;
  return x & 0xff;
}

// time waits delay ms without blocking (a timer), then works work ms on this
// thread, and returns the /time response object.
export async function time({ delay, work }) {
  if (delay > 0) await sleep(delay);
  if (work > 0) burnCPU(work);
  return { now: Date.now() };
}

// acceptsGzip says whether an Accept-Encoding header names gzip (a q=0
// weight refuses it).
export function acceptsGzip(header) {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

// hello returns the /hello body and its headers. The body is encoded from an
// object on every request, and compressed on every request when asked, as
// the Go servers do with encoding/json and their gzip middleware: the same
// work on both sides (docs/contract.md#get-hello), not prepared bytes.
// JSON.stringify is what res.json (Express) and Fastify's default
// serializer would call.
export function hello(acceptEncoding) {
  const headers = { 'content-type': 'application/json', vary: 'Accept-Encoding' };
  const body = JSON.stringify({ result: 'Hello world' });
  if (!acceptsGzip(acceptEncoding)) return { headers, body };
  return { headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipSync(body) };
}
