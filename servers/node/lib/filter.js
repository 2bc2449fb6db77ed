// The streaming /filter of the contract: the request body, a JSON array of
// records, is parsed one element at a time (stream-json) and the records with
// version > min_version are written out as they pass, so memory stays flat
// whatever the size of the body. Shared by the three apps, which hand over
// Node's own request and response streams.
import { streamArray } from 'stream-json/streamers/stream-array.js';

import { HTTPError, errorBody } from './contract.js';

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// minVersion reads the min_version query value (a string, an array of
// strings when repeated, or undefined): a number, 5 when absent.
export function minVersion(value) {
  if (value === undefined || value === null) return 5;
  // 1e999 matches NUMBER but is Infinity: refused, as the Go servers do.
  if (typeof value !== 'string' || !NUMBER.test(value) || !Number.isFinite(Number(value))) {
    throw new HTTPError(400, `min_version=${value}: use a number, e.g. min_version=5`);
  }
  return Number(value);
}

// FLUSH_BYTES is how much encoded output is gathered before one write:
// a write per record would cost a chunk header and a syscall per 300 bytes.
const FLUSH_BYTES = 16 * 1024;

// version checks that an element of the body is a record and returns its
// version (0 when absent, as a typed decoder would leave it).
function version(value, index) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HTTPError(400, `element ${index} is not an object; the body must be an array of records`);
  }
  const v = value.version ?? 0;
  if (typeof v !== 'number') throw new HTTPError(400, `element ${index}: version must be a number`);
  return v;
}

// encode re-encodes a kept record with the contract's five fields.
function encode({ name = '', language = '', id = '', bio = '', version = 0 }) {
  return JSON.stringify({ name, language, id, bio, version });
}

// streamFilter answers POST /filter on req and res (node:http objects) and
// resolves when the exchange is over.
//
// Records are handled in the parser's 'data' events, as it emits them, not
// through `for await`: the async iterator leaves every record of a 64 KB
// socket chunk (about 200) queued while it hands them over one microtask at
// a time, so each young-generation GC found hundreds of them alive and
// promoted them. That garbage filled the old generation (floating garbage
// survives V8's incremental mark-compact too) and took node@24 fastify past
// the contract's 100 MB on a 200 MB body (servers/node/README.md).
// Backpressure is the same: the parser pauses while the response is full.
//
// The status line is held back until the first output, so a malformed body
// found early still gets a 400; an error after the response has started can
// only abort it, so the connection is destroyed and the client sees a
// truncated body instead of a silent success.
export function streamFilter(req, res, min) {
  return new Promise((resolve) => {
    const records = streamArray.withParserAsStream({ streamValues: false });
    let pending = '';
    let started = false;
    let first = true;
    let over = false;

    // stop ends the exchange, once: nothing more is read or written.
    const stop = () => {
      over = true;
      req.unpipe(records);
      records.destroy();
      resolve();
    };
    const flush = () => {
      if (!started) {
        res.writeHead(200, { 'content-type': 'application/json' });
        pending = '[' + pending;
        started = true;
      }
      const more = res.write(pending);
      pending = '';
      if (!more) {
        records.pause();
        res.once('drain', () => records.resume());
      }
    };
    const fail = (err) => {
      if (over) return;
      stop();
      if (res.destroyed) return;
      if (started) {
        res.destroy();
        return;
      }
      // Not started: answer 400, and read and discard the rest of the body,
      // so that the client, still sending, can read the answer.
      req.resume();
      const status = err instanceof HTTPError ? err.status : 400;
      const message = err instanceof HTTPError ? err.message : `malformed JSON body: ${err.message}`;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(errorBody(message));
    };

    records.on('data', ({ key, value }) => {
      if (over) return;
      let v;
      try {
        v = version(value, key);
      } catch (err) {
        fail(err);
        return;
      }
      if (!(v > min)) return;
      pending += (first ? '' : ',') + encode(value);
      first = false;
      if (pending.length >= FLUSH_BYTES) flush();
    });
    records.on('end', () => {
      if (over) return;
      flush();
      res.end(']');
      stop();
    });
    records.on('error', fail);
    req.on('error', fail);
    // The client went away: nothing more to write, and the parser stops.
    res.on('close', () => {
      if (!over) stop();
    });
    req.pipe(records);
  });
}
