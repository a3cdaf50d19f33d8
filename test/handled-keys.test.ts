/**
 * The handled keys as a module (src/memory/handled-keys.ts; docs/behaviour.md
 * 2.5): for any sequence of messages answered, dismissals that go through or
 * fail, messages kept on purpose, mail followed again and restarts, no
 * message is answered twice and the stored list holds only keys of answered
 * messages still in the inbox. The agent-level tests are in
 * agent-handled-keys.test.ts.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Far } from '@endo/far';
import { letGoOfGoneMail, trackHandled } from '../src/memory/handled-keys.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

/** Powers whose inbox is `inbox`, by key (`id:…`) and number. */
const inboxPowers = (inbox: ReadonlyMap<string, bigint>): PowersRef =>
  Far('GuestPowers', {
    listMessages: () =>
      harden([...inbox].map(([key, number]) => ({ number, messageId: key.slice('id:'.length) }))),
  }) as unknown as PowersRef;

const failingPowers = Far('GuestPowers', {
  listMessages: () => Promise.reject(Error('the mailbox did not load')),
}) as unknown as PowersRef;

type Step =
  /** A new message arrives and is answered; the model may dismiss it during its turn; its dismissal then goes through or fails, or is left for later (something pending for it). */
  | { kind: 'arrive'; byModel: boolean; then: 'ok' | 'fail' | 'later' }
  /** A message in the inbox is dismissed later (what was pending for it settled). */
  | { kind: 'dismiss'; which: number; ok: boolean }
  /** The mail is followed again: every message in the inbox shown anew. */
  | { kind: 'refollow'; ok: boolean }
  /** A daemon restart: the memory stored so far loads, the inbox is shown anew, maybe renumbered. */
  | { kind: 'restart'; ok: boolean; renumber: boolean };

const STEP: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('arrive' as const),
    byModel: fc.boolean(),
    then: fc.constantFrom('ok' as const, 'fail' as const, 'later' as const),
  }),
  fc.record({ kind: fc.constant('dismiss' as const), which: fc.nat(20), ok: fc.boolean() }),
  fc.record({ kind: fc.constant('refollow' as const), ok: fc.boolean() }),
  fc.record({ kind: fc.constant('restart' as const), ok: fc.boolean(), renumber: fc.boolean() }),
);

describe('trackHandled', () => {
  test('for any sequence, nothing is answered twice and only undismissed answered keys are stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(STEP, { maxLength: 40 }), async steps => {
        const inbox = new Map<string, bigint>();
        const answers = new Map<string, number>();
        let numbers = 1n;
        let ids = 0;
        const nextNumber = () => {
          numbers += 1n;
          return numbers;
        };
        let memory: string[] = [];
        let handled = trackHandled(memory, 1_000);
        const dismiss = (key: string, ok: boolean) => {
          const number = inbox.get(key);
          if (!ok || number === undefined) return;
          inbox.delete(key);
          handled.dismissed(number);
        };
        /** A showing of a message, as mail-turns.ts takes it: answered once, else dismissed again. */
        const show = (key: string, number: bigint, ok: boolean) => {
          if (!handled.has(key)) answers.set(key, (answers.get(key) ?? 0) + 1);
          handled.add(key, number);
          dismiss(key, ok);
        };
        for (const step of steps) {
          if (step.kind === 'arrive') {
            ids += 1;
            const key = `id:${ids}`;
            const number = nextNumber();
            inbox.set(key, number);
            answers.set(key, 1);
            // The model's own dismissal settles before the turn marks it answered.
            if (step.byModel) dismiss(key, true);
            handled.add(key, number);
            if (step.then !== 'later') dismiss(key, step.then === 'ok');
          } else if (step.kind === 'dismiss') {
            const key = [...inbox.keys()][step.which % Math.max(1, inbox.size)];
            if (key !== undefined) dismiss(key, step.ok);
          } else if (step.kind === 'refollow') {
            for (const [key, number] of [...inbox]) show(key, number, step.ok);
          } else {
            // What was written after the last piece of work loads; the inbox is listed, then shown.
            memory = JSON.parse(JSON.stringify(memory)) as string[];
            handled = trackHandled(memory, 1_000);
            if (step.renumber) for (const key of [...inbox.keys()]) inbox.set(key, nextNumber());
            await letGoOfGoneMail(inboxPowers(inbox), handled, () => {});
            for (const [key, number] of [...inbox]) show(key, number, step.ok);
          }
          expect([...answers.values()].every(count => count === 1)).toBe(true);
          expect(new Set(memory).size).toBe(memory.length);
          expect(memory.every(key => inbox.has(key))).toBe(true);
          expect(handled.stored()).toEqual(memory);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('stores at most `limit` keys, forgetting the oldest, and knows the dismissed ones in the run', () => {
    const memory = ['id:old'];
    const handled = trackHandled(memory, 2);
    expect(handled.has('id:old')).toBe(true);
    handled.add('id:b', 2n);
    handled.add('id:c', 3n);
    expect(memory).toEqual(['id:b', 'id:c']);
    expect(handled.has('id:old')).toBe(false);
    handled.dismissed(3n);
    expect(memory).toEqual(['id:b']);
    expect(handled.has('id:c')).toBe(true);
    // Shown again (a replay): stored once, not twice.
    handled.add('id:b', 2n);
    expect(memory).toEqual(['id:b']);
  });

  test('a listing of the inbox that fails at start keeps every key, and says so', async () => {
    const memory = ['id:a', 'id:b'];
    const logs: string[] = [];
    await letGoOfGoneMail(failingPowers, trackHandled(memory, 10), line => logs.push(line));
    expect(memory).toEqual(['id:a', 'id:b']);
    expect(logs).toEqual([
      'could not list the inbox (the mailbox did not load); the handled message ids are kept',
    ]);
  });

  test('with no key stored the inbox is not listed at all', async () => {
    await letGoOfGoneMail(failingPowers, trackHandled([], 10), () => {
      throw Error('listed');
    });
  });
});
