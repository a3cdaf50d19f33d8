/**
 * listMessages' compact view of each message: what the model needs to act
 * on it, by pet name, for every message type, and a malformed message is
 * shown as far as it can be instead of failing the whole list.
 */
import { describe, expect, test } from 'vitest';
import { compactMessage, endowments } from '../src/mail/compact-message.js';
import type { NameOf } from '../src/mail/sender-names.js';

const names: Record<string, string> = { 'id-host': 'HOST', 'id-self': 'SELF' };
const nameOf: NameOf = async id =>
  typeof id === 'string' ? (names[id] ?? 'unknown sender') : 'unknown sender';

describe('compactMessage', () => {
  test('a package shows its text with @edge names, parties by name, date and replyTo', async () => {
    const view = await compactMessage(
      {
        type: 'package',
        number: 3n,
        from: 'id-host',
        to: 'id-self',
        date: '2026-11-23T09:00:00Z',
        replyTo: 'abc',
        strings: ['see ', ' here'],
        names: ['doc'],
      },
      nameOf,
    );
    expect(view).toEqual({
      number: 3n,
      type: 'package',
      from: 'HOST',
      to: 'SELF',
      date: '2026-11-23T09:00:00Z',
      replyTo: 'abc',
      text: 'see @doc here',
      edgeNames: ['doc'],
    });
  });

  test('a request shows its description; a request without one shows an empty one', async () => {
    expect(
      await compactMessage(
        { type: 'request', number: 4n, from: 'id-host', to: 'id-self', description: 'a colour' },
        nameOf,
      ),
    ).toMatchObject({
      type: 'request',
      description: 'a colour',
    });
    const bare = await compactMessage(
      { type: 'request', number: 5n, from: 'id-host', to: 'id-self', description: 42 },
      nameOf,
    );
    expect(bare.description).toBe('');
    expect(bare).not.toHaveProperty('date');
  });

  test('a proposal shows its source, what each code name is bound to, result and worker names', async () => {
    const view = await compactMessage(
      {
        type: 'eval-proposal-reviewer',
        number: 6n,
        from: 'id-self',
        to: 'id-host',
        source: 'x + y',
        codeNames: ['x', 'y'],
        petNamePaths: [['dir', 'a'], 'b'],
        resultName: 'sum',
        workerName: 'w1',
      },
      nameOf,
    );
    expect(view).toEqual({
      number: 6n,
      type: 'eval-proposal-reviewer',
      from: 'SELF',
      to: 'HOST',
      source: 'x + y',
      endowments: ['x <- dir/a', 'y <- b'],
      resultName: 'sum',
      workerName: 'w1',
    });
  });

  test('a long source is cut, and the view says how long it was', async () => {
    const view = await compactMessage(
      { type: 'eval-proposal-proposer', source: 'a'.repeat(1_500) },
      nameOf,
    );
    expect(view.source).toBe(`${'a'.repeat(1_000)}… (1500 characters in all)`);
    expect(view).not.toHaveProperty('resultName');
  });

  test('a message without a type or parties is still listed', async () => {
    const view = await compactMessage({ number: 9n, strings: ['hi'] }, nameOf);
    expect(view).toEqual({
      number: 9n,
      type: 'unknown',
      from: 'unknown sender',
      to: 'unknown sender',
    });
    expect(await compactMessage({ type: 'package', strings: ['hi'] }, nameOf)).toMatchObject({
      text: 'hi',
    });
    expect(await compactMessage({ type: 'package', strings: ['hi'] }, nameOf)).not.toHaveProperty(
      'edgeNames',
    );
  });
});

describe('endowments', () => {
  test('edge names win over pet-name paths; a code name without a value is marked', () => {
    expect(
      endowments({ codeNames: ['a', 'b'], edgeNames: ['first'], petNamePaths: [['p'], ['q']] }),
    ).toEqual(['a <- first', 'b <- ?']);
    expect(endowments({ codeNames: ['a'], petNamePaths: 'not a list' })).toEqual(['a <- ?']);
    expect(endowments({})).toEqual([]);
  });
});
