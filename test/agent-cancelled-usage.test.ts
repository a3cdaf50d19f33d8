/**
 * Usage counts every model call made, a turn's stopped by a cancellation included (Ctrl-C in the
 * simulator: the agent is cancelled and made again from its store), as the turn's own summary
 * counted them (docs/behaviour.md 10.2; issue 45): the ledger in the store is the one owner of
 * the figures help() (`/status`) shows. Under lockdown, through make() and E(), with the daemon
 * double.
 */
import { describe, expect, test } from 'vitest';
import { ProviderError } from '../providers/types.js';
import { callTool, type Step } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** A model call that streams a few words, then waits for the stop and fails as stopped. */
const stalls: Step = async (_request, signal, onText) => {
  onText('Let me think about');
  await new Promise<void>(resolve => {
    if (signal?.aborted === true) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  throw new ProviderError('aborted', 'the request was aborted');
};

/** help()'s "Usage" section. */
const usageOf = async (help: () => Promise<string>): Promise<string> =>
  /Usage:\n((?:- .*\n?)*)/.exec(await help())?.[1] ?? '';

describe('usage after a cancelled turn', () => {
  test('counts the turn’s answered call and its stopped one, in the run made again', async () => {
    const run = await start({ steps: [callTool('list', {}), stalls] });
    await run.send('go');
    await run.untilEvent(event => event.kind === 'model-text');
    await run.restartAgent([], Error('the host stopped the turn (Ctrl-C)'));
    // The run made again shows its usage once it has read its store.
    await expect.poll(() => usageOf(() => run.help())).not.toBe('');
    const usage = await usageOf(() => run.help());
    expect(usage).not.toContain('no model calls');
    expect(usage).toMatch(/scripted-model: 2 calls/);
  });
});
