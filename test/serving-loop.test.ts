/**
 * The serving loop's own net (serving/serving-loop.ts): work that fails
 * outside a turn (a turn tells its own failure) never stops the loop; the
 * sender of a message whose work failed hears back by a reply to that
 * message, which is then dismissed, and the next piece of work is served.
 * No path through make() fails so today (each step before a turn catches
 * its own failures), so the loop is driven here with handlers that throw.
 */
import { expect, test } from 'vitest';
import { Far } from '@endo/far';
import { freshMemory } from '../src/memory/agent-memory.js';
import { makeSenderNames } from '../src/mail/sender-names.js';
import { makeTellSender } from '../src/mail/tell-sender.js';
import { runServingLoop, type WorkHandlers } from '../src/serving/serving-loop.js';
import { makeWorkQueue } from '../src/serving/work-queue.js';
import type { Work } from '../src/serving/work.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const HOST_ID = `${'c'.repeat(128)}:${'b'.repeat(128)}`;
const STRANGER_ID = `${'9a7fd267'.padEnd(128, '0')}:${'b'.repeat(128)}`;

interface Said {
  how: 'reply' | 'send';
  to: string;
  text: string;
}

/** Guest powers that record what is said and dismissed; `reply` fails for numbers in `gone`. */
const makePowers = (gone: Set<bigint> = new Set()) => {
  const said: Said[] = [];
  const dismissed: bigint[] = [];
  const stored: string[] = [];
  const powers = Far('FakeGuest', {
    reverseIdentify: async (id: string) => {
      if (id === HOST_ID) return harden(['HOST']);
      throw Error('the directory is unreachable');
    },
    reply: async (number: bigint, strings: string[]) => {
      if (gone.has(number)) throw Error(`No message #${number}`);
      said.push({ how: 'reply', to: `#${number}`, text: strings.join('') });
    },
    send: async (to: string, strings: string[]) => {
      if (to !== 'HOST') throw Error(`Unknown pet name: ${to}`);
      said.push({ how: 'send', to, text: strings.join('') });
    },
    dismiss: async (number: bigint) => {
      dismissed.push(number);
    },
    storeValue: async (value: string) => {
      stored.push(value);
    },
  });
  return { powers: powers as unknown as PowersRef, said, dismissed, stored };
};

const mail = (number: bigint, from: string): Work =>
  harden({ kind: 'mail', message: { type: 'package', number, from, strings: ['hi'] } });

const serve = (
  powers: PowersRef,
  works: Work[],
  handle: Partial<WorkHandlers>,
  logs: string[],
  memory = freshMemory(0),
): Promise<void> => {
  const queue = makeWorkQueue<Work>();
  works.forEach(work => queue.push(work));
  queue.close();
  const log = (line: string) => logs.push(line);
  const redact = (text: string) => text.replaceAll('sekret', '[redacted]');
  return runServingLoop({
    queue,
    signal: new AbortController().signal,
    powers,
    parts: {
      memory,
      history: { save: async () => {} } as never,
      nameOf: makeSenderNames(powers),
      tell: makeTellSender(powers, log, redact),
    },
    log,
    redact,
    handle: {
      mail: async () => {},
      channel: async () => {},
      notices: async () => {},
      wake: async () => {},
      forget: async () => 'forgot',
      schedules: () => 'No schedules.',
      ...handle,
    },
  });
};

test('a message whose work fails outside a turn is answered with the failure and dismissed; the next is served', async () => {
  const { powers, said, dismissed, stored } = makePowers();
  const logs: string[] = [];
  const served: bigint[] = [];
  const memory = freshMemory(0);
  // Each piece of work changes the memory before it fails or ends (a memory unchanged is not written again).
  const changed = (what: string) => memory.handled.push(what);
  await serve(
    powers,
    [mail(1n, HOST_ID), { kind: 'wake', id: 'w1' }, mail(2n, HOST_ID)],
    {
      mail: async work => {
        changed(String(work.message.number));
        if (work.message.number === 1n) throw Error('the lookup broke (token sekret)');
        served.push(work.message.number as bigint);
      },
      wake: async () => {
        changed('w1');
        throw Error('the wake-up broke');
      },
    },
    logs,
    memory,
  );
  expect(said).toEqual([
    {
      how: 'reply',
      to: '#1',
      text: 'I could not answer this: the agent failed: the lookup broke (token [redacted]). Send it again if you still need it.',
    },
  ]);
  expect(dismissed).toEqual([1n]);
  expect(served).toEqual([2n]);
  expect(logs).toEqual([
    'could not serve mail: the lookup broke (token [redacted])',
    'could not serve wake: the wake-up broke',
  ]);
  // The memory is written after each piece of work, the failed ones too.
  expect(stored).toHaveLength(3);
});

test("a stranger's message that fails is answered to the stranger, never sent to the HOST", async () => {
  // The stranger's name cannot be had (its look-up fails) and the message is gone when the failure is told.
  const { powers, said, dismissed } = makePowers(new Set([7n]));
  const logs: string[] = [];
  await serve(
    powers,
    [mail(7n, STRANGER_ID), mail(8n, STRANGER_ID)],
    {
      mail: async () => {
        throw Error('it broke');
      },
    },
    logs,
  );
  // #8 still reachable: its reply goes to its sender; #7's failure could not be told, and is logged.
  expect(said).toEqual([
    {
      how: 'reply',
      to: '#8',
      text: 'I could not answer this: the agent failed: it broke. Send it again if you still need it.',
    },
  ]);
  expect(said.filter(each => each.to === 'HOST')).toEqual([]);
  expect(dismissed).toEqual([7n, 8n]);
  expect(logs).toEqual([
    'could not serve mail: it broke',
    'could not tell unnamed 9a7fd267: No message #7',
    'could not serve mail: it broke',
  ]);
});
