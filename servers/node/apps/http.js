// node-http: the contract on Node's built-in http module alone.
import http from 'node:http';

import { BODY_LIMIT, HTTPError, errorBody, hello, notRouted, sum, time, timeParams } from '../lib/contract.js';
import { minVersion, streamFilter } from '../lib/filter.js';
import { runtimeStats } from '../lib/runtime.js';

function send(res, status, body, headers = { 'content-type': 'application/json' }) {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res, err) {
  const status = err instanceof HTTPError ? err.status : 500;
  const headers = { 'content-type': 'application/json' };
  if (err.allow) headers.allow = err.allow;
  send(res, status, errorBody(err.message), headers);
}

// readJSON reads the whole body, at most BODY_LIMIT bytes, and parses it.
// Past the limit the rest is read and discarded before the 413 goes out (as
// express.json does): Node closes a connection answered mid-body, and a
// client still sending then never reads the answer (RFC 9112 section 9.6).
function readJSON(req) {
  return new Promise((resolve, reject) => {
    let chunks = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length']) > BODY_LIMIT;
    req.on('data', (chunk) => {
      if (tooLarge) return;
      size += chunk.length;
      tooLarge = size > BODY_LIMIT;
      if (tooLarge) chunks = [];
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return reject(new HTTPError(413, `body over ${BODY_LIMIT} bytes; send at most 1 MiB`));
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(new HTTPError(400, `malformed JSON body: ${err.message}`));
      }
    });
    req.on('error', reject);
  });
}

async function handle(req, res) {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const route = `${req.method} ${path}`;

  switch (route) {
    case 'GET /status':
    case 'HEAD /status':
      return send(res, 200, '{"status":"ok"}');
    case 'GET /hello':
    case 'HEAD /hello': {
      const { headers, body } = hello(req.headers['accept-encoding']);
      return send(res, 200, body, headers);
    }
    case 'GET /time':
    case 'HEAD /time':
      return send(res, 200, JSON.stringify(await time(timeParams(query))));
    case 'POST /echo':
    case 'POST /echo/any':
      return send(res, 200, JSON.stringify(await readJSON(req)));
    case 'POST /sum':
      return send(res, 200, JSON.stringify(sum(await readJSON(req))));
    case 'GET /runtime':
      return send(res, 200, JSON.stringify(runtimeStats()));
    case 'POST /filter':
      return streamFilter(req, res, minVersion(query.has('min_version') ? query.get('min_version') : undefined));
    default:
      throw notRouted(req.method, path);
  }
}

// listen starts the server on host:port with a listen queue of backlog
// (undefined: Node's default) and resolves once it accepts.
export function listen(host, port, backlog) {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (res.headersSent) return res.destroy();
      sendError(res, err);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog }, () => resolve(server));
  });
}
