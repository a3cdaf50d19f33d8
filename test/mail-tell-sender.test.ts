/**
 * Telling a sender on the agent's behalf: a reply to the message, or, when
 * the message is gone and the reply fails, a new message to the sender by
 * name; when that fails too the failure is logged, never thrown into the
 * turn. The secret redaction applies to every path.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeTellSender } from '../src/mail/tell-sender.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

type Sent = { how: 'reply' | 'send'; to: string; text: string };

const makePowers = (options: { replyFails?: boolean; sendFails?: boolean; thrown?: unknown }) => {
  const sent: Sent[] = [];
  const powers = Far('powers', {
    reply(number: bigint, strings: string[]) {
      // The test chooses what a failing reply throws, non-Errors included.
      const thrown = options.thrown ?? Error(`No such message with number ${number}`);
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (options.replyFails === true) throw thrown;
      sent.push({ how: 'reply', to: `#${number}`, text: strings.join('') });
    },
    send(to: string, strings: string[]) {
      if (options.sendFails === true) throw Error(`Unknown pet name ${to}`);
      sent.push({ how: 'send', to, text: strings.join('') });
    },
  });
  return { powers: powers as unknown as PowersRef, sent };
};

const redact = (text: string) => text.replaceAll('s3cret', '[redacted]');

describe('makeTellSender', () => {
  test('a message still there is replied to', async () => {
    const { powers, sent } = makePowers({});
    const logs: string[] = [];
    await makeTellSender(
      powers,
      line => logs.push(line),
      redact,
    )({ number: 4n, sender: 'alice' }, 'done with s3cret');
    expect(sent).toEqual([{ how: 'reply', to: '#4', text: 'done with [redacted]' }]);
    expect(logs).toEqual([]);
  });

  test('without a message, HOST is told', async () => {
    const { powers, sent } = makePowers({});
    await makeTellSender(powers, () => {}, redact)(undefined, 'woke up');
    expect(sent).toEqual([{ how: 'send', to: 'HOST', text: 'woke up' }]);
  });

  test('when the reply fails (the message is gone) the sender gets a new message by name', async () => {
    const { powers, sent } = makePowers({ replyFails: true });
    await makeTellSender(
      powers,
      () => {},
      redact,
    )({ number: 9n, sender: 'alice' }, 'late s3cret answer');
    expect(sent).toEqual([{ how: 'send', to: 'alice', text: 'late [redacted] answer' }]);
  });

  test('when the sender cannot be reached either, the reason is logged and nothing is thrown', async () => {
    const { powers, sent } = makePowers({ replyFails: true, sendFails: true });
    const logs: string[] = [];
    await expect(
      makeTellSender(
        powers,
        line => logs.push(line),
        redact,
      )({ number: 9n, sender: 'bob' }, 'hello'),
    ).resolves.toBeUndefined();
    expect(sent).toEqual([]);
    expect(logs).toEqual(['could not tell bob: No such message with number 9']);
  });

  test('a failure that is not an Error is logged as text; without a message it is HOST that could not be told', async () => {
    const replyGone = makePowers({ replyFails: true, sendFails: true, thrown: 'mailbox closed' });
    const logs: string[] = [];
    await makeTellSender(
      replyGone.powers,
      line => logs.push(line),
      redact,
    )({ number: 2n, sender: 'carol' }, 'hi');
    const hostGone = makePowers({ sendFails: true });
    await makeTellSender(hostGone.powers, line => logs.push(line), redact)(undefined, 'hi');
    expect(logs).toEqual([
      'could not tell carol: mailbox closed',
      'could not tell HOST: Unknown pet name HOST',
    ]);
  });
});
