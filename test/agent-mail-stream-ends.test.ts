/**
 * The newest daemon's mail stream (an exo-stream reader, read by
 * daemon/stream-reader-client.ts) that fails or ends while the agent still
 * follows it: the agent follows its mail again, and a message sent
 * meanwhile is answered once.
 */
import { describe, expect, test } from 'vitest';
import { E, Far } from '@endo/far';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** Readers that go wrong at their first value, as a daemon's might. */
const readers = {
  'ends at once': () =>
    Far('PassableReader', { stream: async () => harden({ value: undefined, promise: null }) }),
  fails: () =>
    Far('PassableReader', {
      stream: async () => {
        throw Error('Disconnected: the connection closed');
      },
    }),
  'answers something that is not a stream node': () =>
    Far('PassableReader', { stream: async () => 'not a node' }),
} as const;

/** Guest powers whose first followMessages answers a reader that goes wrong. */
const breakFirstFollow = (reader: () => unknown) => async (powers: unknown) => {
  const far = powers as Record<string, (...args: unknown[]) => unknown>;
  const names = (await E(far).__getMethodNames__!()) as string[];
  const methods: Record<string, (...args: unknown[]) => unknown> = {};
  for (const name of names.filter(method => method !== '__getMethodNames__'))
    methods[name] = (...args: unknown[]) => E(far)[name]!(...args);
  let broken = false;
  methods.followMessages = async (...args: unknown[]) => {
    if (broken) return E(far).followMessages!(...args);
    broken = true;
    return reader();
  };
  return Far('EndoGuest', methods);
};

describe.each(Object.keys(readers) as (keyof typeof readers)[])('a mail stream that %s', what => {
  test('is followed again, and mail sent meanwhile is answered once', async () => {
    const run = await start({
      profile: 'newest',
      wrapPowers: breakFirstFollow(readers[what]),
      steps: [replyStep('pong'), replyStep('pong again')],
    });
    await expect
      .poll(() => run.logs.some(line => line.startsWith('following mail failed: ')))
      .toBe(true);
    await run.send('ping');
    await run.reply('pong');
    await run.send('ping again');
    await run.reply('pong again');
    expect(run.provider.requests).toHaveLength(2);
  });
});
