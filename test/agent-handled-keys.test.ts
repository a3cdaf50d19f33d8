/**
 * The handled message keys the memory stores (docs/behaviour.md 2.5;
 * src/memory/handled-keys.ts): only those of answered messages still in the
 * inbox, so a ping's memory does not grow with every message ever answered
 * (issue 46, round 10), and still nothing is answered twice after a restart.
 * Through make() under lockdown against the daemon double, both profiles.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { replyStep, type AgentRun } from './support/agent-harness.js';
import { guest } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeFailingDismissals } from './support/failing-dismissals.js';
import { DAEMON_PROFILES } from '../sim/mail-host/profile.js';
import { freshMemory, VERSION } from '../src/memory/agent-memory.js';
import { messageKey, type MessageRecord } from '../src/mail/message-record.js';

const { start } = useAgents();

interface Stored {
  handled: string[];
  usage: { byModel: Record<string, { calls: number }> };
}

const stored = async (run: AgentRun): Promise<Stored> =>
  JSON.parse((await guest(run).lookup(['agent-state', 'memory'])) as string) as Stored;

const callsStored = async (run: AgentRun): Promise<number> =>
  Object.values((await stored(run)).usage.byModel).reduce((sum, model) => sum + model.calls, 0);

describe.each(DAEMON_PROFILES)('handled keys in the memory (%s daemon)', profile => {
  test('after several pings the memory stores no key of the messages answered and dismissed', async () => {
    const pings = 4;
    const run = await start({
      profile,
      steps: Array.from({ length: pings }, () => replyStep('pong')),
    });
    for (let index = 0; index < pings; index += 1) {
      await run.send(`ping ${index}`);
      await run.reply('pong');
    }
    // The memory is written after each ping's dismissal: wait for the last ping's write.
    await expect.poll(() => callsStored(run)).toBe(pings);
    expect((await stored(run)).handled).toEqual([]);
  });

  test('a message answered whose dismissal failed keeps its key, and is not answered again after a restart', async () => {
    const dismissals = makeFailingDismissals();
    const run = await start({ profile, steps: [replyStep('pong')], wrapPowers: dismissals.wrap });
    dismissals.state.failing = true;
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(() => callsStored(run)).toBe(1);
    const { handled } = await stored(run);
    expect(handled).toHaveLength(1);
    dismissals.state.failing = false;
    await run.restart([replyStep('fresh answer')]);
    await run.send('hello again');
    await run.reply('fresh answer');
    // One model call after the restart, for the new message; the replayed ping was dismissed.
    expect(run.provider.requests).toHaveLength(1);
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toContain('hello again');
    const inbox = (await guest(run).listMessages()) as unknown as readonly MessageRecord[];
    expect(inbox.map(message => messageKey(message))).not.toContain(handled[0]);
    await expect.poll(async () => (await stored(run)).handled).toEqual([]);
  });

  test("an older memory's long list of keys shrinks at start to those of messages still in the inbox", async () => {
    const dismissals = makeFailingDismissals();
    // The one message still waiting, answered before the restart and never dismissed.
    let waiting = '';
    const gone = Array.from(
      { length: 255 },
      (_, index) => `id:${index.toString(16).padStart(24, '0')}`,
    );
    const run = await start({
      profile,
      steps: [replyStep('pong')],
      wrapPowers: dismissals.wrap,
      prepare: async (host, name) => {
        await E(host.host).send(name, ['an old question'], [], []);
        const [old] = (await E(
          host.guest(name).powers,
        ).listMessages()) as unknown as readonly MessageRecord[];
        waiting = messageKey(old!)!;
        // Its replay is not dismissed this time either: its key must stay.
        dismissals.state.failing = true;
        const memory = JSON.stringify({
          version: VERSION,
          ...freshMemory(),
          handled: [...gone, waiting],
        });
        await E(host.guest(name).powers).makeDirectory('agent-state');
        await E(host.guest(name).powers).storeValue(memory, ['agent-state', 'memory']);
      },
    });
    await expect.poll(async () => (await stored(run)).handled).toEqual([waiting]);
    expect(run.logs).toContain(
      'let go of 255 handled message id(s) whose messages are no longer in the inbox',
    );
    dismissals.state.failing = false;
    await run.send('ping');
    await run.reply('pong');
    // Answered once: the old question was replayed, never a turn.
    expect(run.provider.requests).toHaveLength(1);
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toContain('ping');
  });
});
