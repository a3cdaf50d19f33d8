/**
 * behaviour 2.4: records that are not well-formed messages (as a buggy or newer
 * daemon might deliver) are skipped or answered, and the loop goes on.
 * Uses a minimal fake of the guest powers so the records can be anything.
 */
import { expect, test } from 'vitest';
import { Far } from '@endo/far';
import { make } from '../agent.js';
import { makeScriptedProvider, say } from './support/scripted-provider.js';

test('malformed records do not stop the loop; the next good message is answered', async () => {
  const SELF = `${'a'.repeat(128)}:${'b'.repeat(128)}`;
  const HOST = `${'c'.repeat(128)}:${'b'.repeat(128)}`;
  const sent: { to: string; text: string }[] = [];
  const replies: { number: bigint; text: string }[] = [];
  const records: unknown[] = [
    null,
    42,
    harden({ type: 'package', from: HOST, strings: ['no number'] }),
    harden({ type: 'mystery', number: 1n, from: HOST, messageId: 'm1', weird: { deep: [1, 2] } }),
    harden({
      type: 'package',
      number: 2n,
      from: HOST,
      messageId: 'm2',
      strings: 'not an array',
      names: [7],
    }),
    harden({
      type: 'package',
      number: 3n,
      from: HOST,
      messageId: 'm3',
      strings: ['ping'],
      names: [],
    }),
  ];
  let index = 0;
  const iterator = Far('iterator', {
    next: async () => {
      if (index >= records.length) return new Promise(() => {});
      index += 1;
      return harden({ done: false, value: records[index - 1] });
    },
    return: async () => harden({ done: true, value: undefined }),
    throw: async () => harden({ done: true, value: undefined }),
  });
  const powers = Far('FakeGuest', {
    identify: async (name: string) => (name === 'SELF' ? SELF : undefined),
    reverseIdentify: (id: string) => harden(id === HOST ? ['HOST'] : []),
    has: async () => false,
    list: async () => harden([]),
    makeDirectory: async () => Far('dir', {}),
    storeValue: async () => {},
    followMessages: async () => iterator,
    send: async (to: string, strings: string[]) => {
      sent.push({ to, text: strings.join('') });
    },
    reply: async (number: bigint, strings: string[]) => {
      replies.push({ number, text: strings.join('') });
    },
    dismiss: async () => {},
  });
  const provider = makeScriptedProvider([
    say('about the mystery'),
    say('about the odd package'),
    say('pong'),
  ]);
  const logs: string[] = [];
  const controller = { whenCancelled: () => new Promise(() => {}) };
  make(powers as never, Far('Context', controller), {
    env: {},
    createProvider: () => provider,
    log: line => logs.push(line),
  });
  await expect
    .poll(() => replies.map(reply => reply.text))
    .toEqual(['about the mystery', 'about the odd package', 'pong']);
  expect(replies.map(reply => reply.number)).toEqual([1n, 2n, 3n]);
  expect(sent[0]).toEqual({
    to: 'HOST',
    text: 'Lal agent ready. I think with scripted-model (scripted).',
  });
  expect(logs.join('\n')).toMatch(/skipped a malformed message/);
  expect(logs.join('\n')).toMatch(/skipped a message without a number/);
  // The unknown type was shown to the model with its plain fields.
  expect(provider.requests[0]!.messages.at(-1)!.content).toMatch(/type "mystery"/);
});
