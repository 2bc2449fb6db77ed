// The settings every server reads from its environment: BACKLOG sizes the
// listen queue, and a bad value is refused with a message that says how to
// fix it (the servers' listen queue itself is checked by restbench verify's
// backlog=1024 row, against the kernel's own figure).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { settings } from '../lib/settings.js';

test('BACKLOG: unset keeps the default, a count is passed on, anything else is refused', () => {
  const cases = [
    { env: { PORT: '1' }, backlog: undefined },
    { env: { PORT: '1', BACKLOG: '4096' }, backlog: 4096 },
    { env: { PORT: '1', BACKLOG: '0' }, error: /BACKLOG=0: use a positive number/ },
    { env: { PORT: '1', BACKLOG: 'lots' }, error: /BACKLOG=lots/ },
  ];
  for (const c of cases) {
    if (c.error) assert.throws(() => settings(c.env), c.error);
    else assert.equal(settings(c.env).backlog, c.backlog);
  }
});
