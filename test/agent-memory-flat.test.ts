/**
 * The agent's store stays flat over a long conversation (issue 11, item
 * 12), under lockdown through make(): the usage ledger keeps the quotas'
 * last hour by the clock minute, so calls at any rate add no entries beyond
 * one a minute, the quotas still count every call, and a version 2 store
 * (one [when, tokens] entry per call) loads and counts.
 */
import { VERSION } from '../src/memory/agent-memory.js';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { replyStep, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { makeManualClock } from './support/manual-clock.js';

const { start } = useAgents();

type StoredUsage = { recent: number[][] };
const stored = async (run: AgentRun) =>
  JSON.parse(
    String(await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory'])),
  ) as Record<string, unknown>;
const callsOf = (usage: StoredUsage) =>
  usage.recent.reduce((sum, entry) => sum + (entry[2] ?? 1), 0);

describe('the usage ledger in the store is bounded', () => {
  test('40 messages, 10 s apart: one entry per clock minute, every call counted', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, steps: [] });
    for (let index = 1; index <= 40; index += 1) {
      run.provider.push(replyStep(`pong ${index}`));
      await run.send(`ping ${index}`);
      await run.reply(`pong ${index}`);
      clock.advance(10_000);
    }
    await expect
      .poll(async () => callsOf((await stored(run)).usage as StoredUsage))
      .toBe(run.provider.requests.length);
    const usage = (await stored(run)).usage as StoredUsage;
    // 400 s of calls span 7 clock minutes (09:00 to 09:06).
    expect(usage.recent.length).toBeLessThanOrEqual(7);
    expect(run.provider.requests.length).toBeGreaterThanOrEqual(40);
  });

  test('calls merged by the minute still spend the call budget, which frees up an hour after the minute’s last call', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, env: { LAL_MAX_CALLS_PER_HOUR: '3' }, steps: [] });
    for (let index = 1; index <= 3; index += 1) {
      run.provider.push(replyStep(`pong ${index}`));
      await run.send(`ping ${index}`);
      await run.reply(`pong ${index}`);
      clock.advance(20_000);
    }
    run.provider.push(replyStep('the fourth answer'));
    await run.send('ping 4');
    expect((await run.reply(/hour's budget/)).strings!.join('')).toMatch(
      /\(3 of 3 model calls this hour \(LAL_MAX_CALLS_PER_HOUR\)\)\. Your message #\d+ is kept, and I will take it up at 2026-11-23T10:00:40\.000Z/,
    );
    expect(run.provider.requests).toHaveLength(3);
    clock.advance(60 * 60 * 1000);
    await run.reply('the fourth answer');
  });
});

describe('the store of the previous version', () => {
  test('a version 2 memory loads: its [when, tokens] entries count one call each, and it is stored again in the current version', async () => {
    const clock = makeManualClock();
    const now = clock.now();
    const v2 = JSON.stringify({
      version: 2,
      conversation: {
        digest: [{ text: '#1 from HOST: "the colour is teal" → replied', count: 1 }],
        omitted: 0,
        turns: [],
      },
      handled: ['id-of-an-old-message'],
      usage: {
        since: now - 1000,
        byModel: {
          'scripted-model': { calls: 2, inputTokens: 20, outputTokens: 4, cachedInputTokens: 0 },
        },
        recent: [
          [now - 1000, 12],
          [now - 500, 12],
        ],
      },
      wakeUps: [],
    });
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '3' },
      prepare: async (host, name) => {
        await E(host.guest(name).powers).storeValue(v2, 'agent-memory');
      },
      steps: [replyStep('teal')],
    });
    expect(await run.help()).toMatch(/this hour: 2 of 3 model calls/);
    await run.send('what colour?');
    await run.reply('teal');
    expect(JSON.stringify(run.provider.requests[0]!.messages)).toContain('the colour is teal');
    // Stored again at start (the greeting) and after the turn: wait for the turn's write.
    await expect.poll(async () => callsOf((await stored(run)).usage as StoredUsage)).toBe(3);
    const memory = await stored(run);
    expect(memory.version).toBe(VERSION);
    // Its message is no longer in the inbox: the key went at start (src/memory/handled-keys.ts).
    expect(memory.handled).toEqual([]);
    const usage = memory.usage as StoredUsage;
    expect(usage.recent.every(entry => entry.length === 3)).toBe(true);
    expect(callsOf(usage)).toBe(3);
    await run.send('and now?');
    expect((await run.reply(/hour's budget/)).strings!.join('')).toMatch(
      /3 of 3 model calls this hour/,
    );
  });
});
