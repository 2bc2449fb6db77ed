import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { runtimeStats } from '../lib/runtime.js';

// A loop blocked for 60 ms between two readings shows in the second one's
// event-loop delay, and the reading names the runtime and its heap.
test('GET /runtime sees a blocked event loop', async () => {
  runtimeStats();
  await sleep(30);
  const until = Date.now() + 60;
  while (Date.now() < until); // block the loop
  await sleep(30);
  const s = runtimeStats();
  assert.match(s.runtime, /^(node v|bun |deno )/);
  assert.ok(s.heap_used_bytes > 0 && s.heap_total_bytes >= s.heap_used_bytes, JSON.stringify(s));
  if (s.not_available?.includes('event_loop_delay')) return;
  assert.ok(s.event_loop_delay_max_ms >= 40, `max delay ${s.event_loop_delay_max_ms} ms after a 60 ms block`);
  assert.ok(s.event_loop_utilization > 0 && s.event_loop_utilization <= 1, JSON.stringify(s));
});
