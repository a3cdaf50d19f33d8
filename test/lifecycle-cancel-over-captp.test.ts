/**
 * The HOST cancels a running agent (`endo cancel controller-for-lal`, docs/daemon-guide.md "Stop,
 * restart and remove an agent"; LAL_RESTART=1 stops the old agent so): the daemon's cancel runs its
 * disposal hooks as functions in its own process, so an agent that handed it one from its worker
 * (a remote reference) failed it on both real daemons, `hook is not a function`. The agent hands it
 * none; the run made next still reads what the stopped one wrote last (src/lifecycle/last-write.ts).
 */
import { describe, expect, test } from 'vitest';
import { makeMailHost } from '../sim/mail-host/index.js';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

describe('the HOST cancels a running agent', () => {
  test('the cancel succeeds, and the agent made again answers', async () => {
    const host = makeMailHost();
    const run = await start({ host, steps: [say('pong'), say('pong again')] });
    await run.send('ping');
    await run.reply('pong');
    await expect(run.cancel()).resolves.toBeUndefined();
    await run.restartAgent([say('pong again')]);
    await run.send('ping again');
    await run.reply('pong again');
    expect(run.logs.join('\n')).not.toMatch(/hook is not a function/);
  });
});
