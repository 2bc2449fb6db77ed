// node-fastify: the contract as a Fastify application.
import { finished } from 'node:stream/promises';

import Fastify from 'fastify';

import { BODY_LIMIT, HTTPError, errorBody, hello, notRouted, sum, time, timeParams } from '../lib/contract.js';
import { minVersion, streamFilter } from '../lib/filter.js';
import { runtimeStats } from '../lib/runtime.js';

const fastify = Fastify({ logger: false, bodyLimit: BODY_LIMIT });

// Bodies are parsed as JSON whatever their Content-Type says, as the Go
// servers do, with Fastify's own (safe) JSON parser.
fastify.addContentTypeParser('*', { parseAs: 'string' }, fastify.getDefaultJsonParser('error', 'ignore'));

fastify.setErrorHandler(async (err, request, reply) => {
  let status = err instanceof HTTPError ? err.status : err.statusCode ?? 500;
  let message = err.message;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    message = `body over ${BODY_LIMIT} bytes; send at most 1 MiB`;
    // Read and discard the rest first (as express.json does): Node closes a
    // connection answered mid-body, and a client still sending then never
    // reads the 413 (RFC 9112 section 9.6).
    await drain(request.raw);
  }
  else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
    status = 400;
    message = `malformed JSON body: ${err.message}`;
  }
  return reply.code(status).type('application/json').send(errorBody(message));
});

function drain(req) {
  if (req.complete) return;
  req.resume();
  return finished(req).catch(() => {});
}

fastify.setNotFoundHandler((request, reply) => {
  const err = notRouted(request.method, request.url.split('?')[0]);
  if (err.allow) reply.header('allow', err.allow);
  reply.code(err.status).type('application/json').send(errorBody(err.message));
});

const object = (properties) => ({ 200: { type: 'object', properties } });

fastify.get('/status', { schema: { response: object({ status: { type: 'string' } }) } }, async () => ({ status: 'ok' }));

fastify.get('/hello', async (request, reply) => {
  const { headers, body } = hello(request.headers['accept-encoding']);
  reply.headers(headers);
  return body;
});

fastify.get('/time', { schema: { response: object({ now: { type: 'integer' } }) } }, async (request) =>
  time(timeParams(request.query)),
);

fastify.get('/runtime', async () => runtimeStats());

// Encoded here rather than returned: Fastify sends a returned string (a
// JSON document that is just a string) as text, unencoded.
const echo = async (request, reply) => reply.type('application/json').send(JSON.stringify(request.body));
fastify.post('/echo', echo);
fastify.post('/echo/any', echo);

fastify.post('/sum', { schema: { response: object({ result: { type: 'number' } }) } }, async (request) =>
  sum(request.body),
);

// /filter in its own context, whose only parser leaves the body unread: the
// handler takes over the raw request and response and streams both.
fastify.register(async (scope) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, payload, done) => done(null));
  scope.post('/filter', async (request, reply) => {
    const min = minVersion(request.query.min_version);
    reply.hijack();
    await streamFilter(request.raw, reply.raw, min);
  });
});

// listen starts the server on host:port with a listen queue of backlog
// (undefined: Node's default) and resolves once it accepts.
export async function listen(host, port, backlog) {
  await fastify.listen({ host, port, backlog });
  return fastify.server;
}

