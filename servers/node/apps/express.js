// node-express: the contract as an Express application.
import express from 'express';

import { BODY_LIMIT, HTTPError, errorBody, hello, notRouted, sum, time, timeParams } from '../lib/contract.js';
import { minVersion, streamFilter } from '../lib/filter.js';
import { runtimeStats } from '../lib/runtime.js';

const app = express();
// No ETag hashing of every response and no advertising header: what a
// production team turns off, and what the Go servers do not do either.
app.disable('etag');
app.disable('x-powered-by');

// JSON bodies of at most 1 MiB, whatever their Content-Type says (as the Go
// servers), and any JSON value at the top level (as JSON.parse). An empty
// body is malformed JSON, not the {} that express.json makes of it.
const json = express.json({
  limit: BODY_LIMIT,
  strict: false,
  type: () => true,
  verify: (req, res, buf) => {
    if (buf.length === 0) throw new HTTPError(400, 'malformed JSON body: the body is empty');
  },
});

app.get('/status', (req, res) => {
  res.json({ status: 'ok' });
});

app.get('/hello', (req, res) => {
  const { headers, body } = hello(req.get('accept-encoding'));
  res.set(headers).send(body);
});

app.get('/time', async (req, res) => {
  res.json(await time(timeParams(req.query)));
});

app.post(['/echo', '/echo/any'], json, (req, res) => {
  res.json(req.body);
});

app.post('/sum', json, (req, res) => {
  res.json(sum(req.body));
});

// /filter reads the raw request stream: no body parser may buffer it.
app.post('/filter', (req, res) => streamFilter(req, res, minVersion(req.query.min_version)));

app.get('/runtime', (req, res) => res.json(runtimeStats()));

app.use((req, res, next) => {
  next(notRouted(req.method, req.path));
});

// Every error, from a route or from express.json (status 400 or 413), is
// answered as {"error": "..."}.
app.use((err, req, res, next) => {
  if (res.headersSent) return req.socket.destroy();
  // express.json reports a failed verify as 403; ours only refuses empty bodies.
  const status = err.type === 'entity.verify.failed' ? 400 : err.status ?? err.statusCode ?? 500;
  if (err.allow) res.set('allow', err.allow);
  let message = err.message;
  if (err.type === 'entity.parse.failed') message = `malformed JSON body: ${err.message}`;
  if (err.type === 'entity.too.large') message = `body over ${BODY_LIMIT} bytes; send at most 1 MiB`;
  res.status(status).type('application/json').send(errorBody(message));
});

// listen starts the server on host:port with a listen queue of backlog
// (undefined: Node's default) and resolves once it accepts.
export function listen(host, port, backlog) {
  return new Promise((resolve, reject) => {
    const server = app.listen({ port, host, backlog }, (err) => (err ? reject(err) : resolve(server)));
  });
}
