/**
 * The holds' told-once marks over a restart, through make() in the daemon
 * double under a manual clock (src/lifecycle/holds.ts, docs/behaviour.md
 * 7.8 and 2.9): a wake-up postponed by a spent budget, whose setter was told,
 * is not told again when the agent comes back with the budget still spent;
 * a version 8 store's marks (the quota's `toldToWait`, a peer's `held` and
 * `told`) load into the one list, so neither the sender of a held message
 * nor the HOST hears twice.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool } from './support/scripted-provider.js';
import {
  asMessages,
  replyStep,
  textOf,
  type AgentRun,
  type MailHost,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { fromAgentToHost } from './support/agent-observers.js';
import { makeManualClock } from './support/manual-clock.js';
import { VERSION } from '../src/memory/agent-memory.js';
import { senderKey } from '../src/peers/sender-ledger.js';

const { start } = useAgents();
const MIN = 60_000;

const toldHost = async (run: AgentRun, pattern: RegExp) =>
  (await fromAgentToHost(run)).map(textOf).filter(text => pattern.test(text));
const storedMemory = async (run: AgentRun) =>
  JSON.parse(
    (await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory'])) as string,
  ) as {
    version: number;
    holds?: { key: string; why: string }[];
  } & Record<string, unknown>;

describe('a postponed wake-up over a restart', () => {
  test('its setter is told once, not again when the agent comes back with the budget still spent', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '2' },
      steps: [callTool('schedule', { note: 'ping the server', every: '1m' }), replyStep('ok')],
    });
    await run.send('ping the server every minute');
    await run.reply('ok');
    clock.advance(MIN);
    await run.reply(/^Wake-up w1 .* is postponed/);
    // In the store before the agent goes down.
    await expect
      .poll(async () => (await storedMemory(run)).holds ?? [])
      .toContainEqual({ key: 'wake-up w1', why: 'quota' });
    await run.restart([]);
    // The wake-up, overdue, is taken up at start and postponed again; a message sent after it is
    // served after it (the agent's own lane comes first) and held by the same budget.
    await run.send('still there?');
    await run.reply(/Your message #\d+ is kept/);
    expect(await toldHost(run, /is postponed/)).toHaveLength(1);
  });
});

/** A version 8 store, as the previous release wrote it: a message told to wait, bob held and the HOST told. */
const version8 = (bobKey: string, heldKey: string, now: number) => ({
  version: 8,
  conversation: { digest: [], omitted: 0, turns: [] },
  threads: [],
  handled: [],
  usage: {
    since: now - 10 * MIN,
    byModel: { m: { calls: 1, inputTokens: 10, outputTokens: 2 } },
    recent: [[now - 5 * MIN, 12, 1]],
  },
  wakeUps: [],
  asks: { next: 1, pending: [] },
  toldToWait: [heldKey, 7],
  notices: [],
  senders: [
    {
      key: bobKey,
      name: 'bob',
      served: 2,
      last: now - 5 * MIN,
      exchanges: 2,
      minutes: [[now - 5 * MIN, 2]],
      held: 'exchanges',
      told: true,
    },
  ],
  helpers: { seq: 0, running: [] },
});

const makeBob = async (host: MailHost, agentName: string) => {
  await E(host.host).provideGuest('bob', { introducedNames: { [agentName]: 'lal' } });
};

describe('a version 8 store', () => {
  test('loads with its told marks in the one list: the held message and the held peer are not told again', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '1', LAL_MAX_PEER_EXCHANGES: '2' },
      prepare: async (host, name) => {
        await makeBob(host, name);
        const guest = E(host.guest(name).powers);
        // A HOST message the previous release held for the budget and told its sender about.
        await E(host.host).send(name, ['what is the time?'], [], []);
        const [held] = asMessages(await guest.listMessages());
        const heldKey = `id:${String(held!.messageId).slice(0, 24)}`;
        // Bob, held for his turns in a row; one message of his still waits in the inbox.
        await E(host.guest('bob').powers).send('lal', ['are you there?'], [], []);
        await guest.storeValue(
          JSON.stringify(version8(senderKey(host.guest('bob').id), heldKey, clock.now())),
          'agent-memory',
        );
      },
      steps: [],
    });
    expect(run.logs.join('\n')).toMatch(
      /agent-state\/memory: 1 told mark\(s\) did not read and were left out/,
    );
    // Both wait, as help() says, and nobody has been told anything.
    await expect.poll(() => run.help()).toMatch(/HELD after 2 turns in a row \(1 message wait/);
    await expect.poll(async () => (await storedMemory(run)).version).toBe(VERSION);
    const stored = await storedMemory(run);
    expect(stored.toldToWait).toBeUndefined();
    expect(stored.holds).toHaveLength(2);
    expect(await toldHost(run, /Your message #|^I stopped answering/)).toEqual([]);
    // The budget frees: the held message is served; the HOST's word lets bob in too.
    run.provider.push(replyStep('noon'));
    clock.advance(60 * MIN);
    await run.reply('noon');
    expect(await toldHost(run, /Your message #/)).toEqual([]);
    expect(await toldHost(run, /^I stopped answering/)).toEqual([]);
  });
});
