/**
 * The leak checks look past random ids (test/support/without-ids.ts): what
 * they blank must be only ids, or a leaked secret would pass unseen.
 */
import { expect, test } from 'vitest';
import { withoutIds } from './support/without-ids.js';
import { makeWireId } from '../sim/model-server/wire-dialect.js';
import { randomHex256, randomHex512 } from '../sim/mail-host/formula-id.js';

test('a secret of digits stays, in words or in JSON, beside ids', () => {
  const leak = JSON.stringify({
    id: makeWireId('call_'),
    content: 'Message #3 from unnamed 9a7fd267: my bank PIN is 4921',
    from: `${randomHex512()}:${randomHex512()}`,
    locator: `endo://${randomHex256()}/${randomHex256()}?type=handle`,
  });
  expect(withoutIds(leak)).toContain('my bank PIN is 4921');
  expect(withoutIds('4921')).toBe('4921');
  expect(withoutIds('"4921"')).toBe('"4921"');
});

test('ids that hold the digits by chance are blanked', () => {
  for (const id of [
    `c0ffee4921${'0'.repeat(118)}`,
    'call_mih4921x0001',
    'toolu_4921abc',
    'chatcmpl-z49210',
    'unnamed 4921abcd',
  ])
    expect(withoutIds(id)).not.toContain('4921');
});
