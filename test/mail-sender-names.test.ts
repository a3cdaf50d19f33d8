/**
 * How senders are named for the model: by the guest's own pet name for
 * them (HOST first, never SELF when another name exists), a short form of
 * the id when there is none (asked again next time, as the host may
 * introduce one), and a failing look-up never fails the message.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeSenderNames } from '../src/mail/sender-names.js';

const makePowers = (names: Record<string, unknown>, failing = new Set<string>()) => {
  const asked: string[] = [];
  const powers = Far('powers', {
    reverseIdentify(id: string) {
      asked.push(id);
      if (failing.has(id)) throw Error('daemon busy');
      return names[id] ?? [];
    },
  });
  return { powers, asked };
};

const LONG_ID = 'f'.repeat(128);

describe('makeSenderNames', () => {
  test('HOST wins; otherwise a pet name over SELF; SELF only when it is the only name', async () => {
    const { powers } = makePowers({
      a: ['SELF', 'HOST', 'boss'],
      b: ['SELF', 'alice'],
      c: ['SELF'],
    });
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('a')).toBe('HOST');
    expect(await nameOf('b')).toBe('alice');
    expect(await nameOf('c')).toBe('SELF');
  });

  test('a known name is asked for once', async () => {
    const { powers, asked } = makePowers({ a: ['alice'] });
    const nameOf = makeSenderNames(powers);
    await nameOf('a');
    await nameOf('a');
    expect(asked).toEqual(['a']);
  });

  test('without a name a long id is shortened, and asked for again next time', async () => {
    const names: Record<string, unknown> = { [LONG_ID]: [] };
    const { powers, asked } = makePowers(names);
    const nameOf = makeSenderNames(powers);
    expect(await nameOf(LONG_ID)).toBe(`id ${'f'.repeat(8)}…`);
    names[LONG_ID] = ['bob'];
    expect(await nameOf(LONG_ID)).toBe('bob');
    expect(asked).toEqual([LONG_ID, LONG_ID]);
  });

  test('a failing look-up gives the short id and is tried again; a short id is shown whole', async () => {
    const failing = new Set(['abc']);
    const { powers, asked } = makePowers({ abc: ['carol'] }, failing);
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('abc')).toBe('abc');
    failing.clear();
    expect(await nameOf('abc')).toBe('carol');
    expect(asked).toEqual(['abc', 'abc']);
  });

  test('a look-up that answers something other than a list of names, or no id at all', async () => {
    const { powers } = makePowers({ x: 'HOST', y: [7, 'dave'] });
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('x')).toBe('x');
    expect(await nameOf('y')).toBe('dave');
    expect(await nameOf(undefined)).toBe('unknown sender');
    expect(await nameOf('')).toBe('unknown sender');
  });
});
