/**
 * Operator controls under lockdown through make(): hourly quotas (the
 * sender hears when the agent can go on; the message waits and is served
 * later), usage in help() kept across restarts, wake-ups of the `schedule`
 * tool (kept in the store, firing after a restart), forget(), and a store
 * of the previous version loading.
 */
import { VERSION } from '../src/memory/agent-memory.js';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import { replyStep, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { makeManualClock } from './support/manual-clock.js';
import { makeFailingDismissals } from './support/failing-dismissals.js';

const { start } = useAgents();

const HOUR = 60 * 60 * 1000;
const inbox = async (run: AgentRun) =>
  (await E(run.host.guest(run.name).powers).listMessages()) as unknown as {
    number: bigint;
    strings?: string[];
  }[];
const stored = async (run: AgentRun) =>
  JSON.parse(
    String(await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory'])),
  ) as Record<string, unknown>;

describe('hourly quotas (LAL_MAX_CALLS_PER_HOUR, LAL_MAX_TOKENS_PER_HOUR)', () => {
  test('a spent call budget tells the sender when the agent can go on, and the message is served then', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '1' },
      steps: [replyStep('pong')],
    });
    await run.send('ping');
    await run.reply('pong');
    run.provider.push(replyStep('the second answer'));
    await run.send('second question');
    const told = await run.reply(/hour's budget/);
    expect(told.strings!.join('')).toMatch(
      /^I have used this hour's budget \(1 of 1 model calls this hour \(LAL_MAX_CALLS_PER_HOUR\)\)\. Your message #\d+ is kept, and I will take it up at 2026-11-23T10:00:00\.000Z \(in about 60 minutes\)\.$/,
    );
    // Not served, not dismissed: it waits in the inbox.
    expect(run.provider.requests).toHaveLength(1);
    expect(
      (await inbox(run)).some(message => message.strings?.join('') === 'second question'),
    ).toBe(true);
    expect(await run.help()).toMatch(
      /this hour: 1 of 1 model calls .*\n- budget spent; new work waits until 2026-11-23T10:00:00\.000Z/,
    );
    clock.advance(HOUR);
    await run.reply('the second answer');
    expect(run.provider.requests).toHaveLength(2);
  });

  test('a spent token budget holds the message too', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_TOKENS_PER_HOUR: '10' },
      steps: [replyStep('pong')],
    });
    await run.send('ping');
    await run.reply('pong');
    await run.send('again');
    expect((await run.reply(/hour's budget/)).strings!.join('')).toMatch(
      /tokens this hour \(LAL_MAX_TOKENS_PER_HOUR\)/,
    );
    run.provider.push(replyStep('pong again'));
    clock.advance(HOUR);
    await run.reply('pong again');
  });
});

describe('usage in help()', () => {
  test('calls and tokens in / out / cached per model, kept in the store across a restart', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, steps: [replyStep('pong')] });
    await run.send('ping');
    await run.reply('pong');
    const inTokens =
      run.provider.requests[0]!.messages.length > 0
        ? JSON.stringify(run.provider.requests[0]!.messages).length
        : 0;
    // Thousands grouped (toLocaleString would not group under lockdown).
    const grouped = String(inTokens).replace(/\B(?=(\d{3})+$)/g, ',');
    expect(grouped).toContain(',');
    const line = new RegExp(`scripted-model: 1 call, ${grouped} tokens in \\(0 cached\\) / 1 out`);
    expect(await run.help()).toMatch(line);
    await expect
      .poll(async () => JSON.stringify((await stored(run)).usage))
      .toContain('scripted-model');
    await run.restart();
    // help() of the new make(), once it has read its store.
    await expect.poll(() => run.help()).toMatch(line);
  });
});

describe('wake-ups (the schedule tool)', () => {
  test('a wake-up is kept in the store, fires after a restart of make(), and its answer goes to the sender', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      steps: [
        callTool('schedule', { note: 'remind HOST to check the build', delaySeconds: 1200 }),
        replyStep('I will remind you'),
      ],
    });
    await run.send('remind me in 20 minutes to check the build');
    await run.reply('I will remind you');
    expect(JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content)).toMatchObject({
      scheduled: 'w1',
      at: '2026-11-23T09:20:00.000Z',
      tellsWhenDue: 'HOST',
    });
    expect(await run.help()).toMatch(
      /Wake-ups:\n- w1 at 2026-11-23T09:20:00\.000Z for HOST: "remind HOST to check the build"/,
    );
    await expect
      .poll(async () => (await stored(run)).wakeUps)
      .toMatchObject([{ id: 'w1', note: 'remind HOST to check the build' }]);

    await run.restart([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(/^WAKE-UP w1: the time you set has come/);
        expect(notice).toContain('"remind HOST to check the build"');
        return callTool('send', { recipient: 'HOST', strings: ['Time to check the build'] });
      },
      say(''),
    ]);
    expect(run.provider.requests).toHaveLength(0);
    clock.advance(20 * 60 * 1000);
    await run.reply('Time to check the build');
    await expect.poll(async () => (await stored(run)).wakeUps).toEqual([]);
    expect(await run.help()).not.toMatch(/Wake-ups/);
  });

  test('bad times are refused with a clear error, and the number pending is bounded', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_WAKE_UPS: '1' },
      steps: [
        callTool('schedule', { note: 'x', at: 'next tuesday' }),
        callTool('schedule', { note: 'x', at: '2020-01-01T00:00:00Z' }),
        callTool('schedule', { note: 'first', delaySeconds: 60 }),
        callTool('schedule', { note: 'second', delaySeconds: 60 }),
        replyStep('done'),
      ],
    });
    await run.send('set some reminders');
    await run.reply('done');
    const results = run.provider.requests.slice(1).map(request => request.messages.at(-1)!.content);
    expect(results[0]).toMatch(/at must be an ISO 8601 time/);
    expect(results[1]).toMatch(/has passed already/);
    expect(JSON.parse(results[2]!)).toMatchObject({ scheduled: 'w1' });
    expect(results[3]).toMatch(
      /1 wake-ups are pending already for \S+, the most each party may have \(LAL_MAX_WAKE_UPS\)/,
    );
  });
});

describe('forget()', () => {
  test('clears the conversation, its digest and the usage, keeps handled ids, and is documented', async () => {
    const clock = makeManualClock();
    // Its dismissal fails, so the message stays in the inbox and its key in the memory.
    const dismissals = makeFailingDismissals();
    const run = await start({ clock, steps: [replyStep('one')], wrapPowers: dismissals.wrap });
    dismissals.state.failing = true;
    await run.send('the secret word is marmalade');
    await run.reply('one');
    expect(await run.help('forget')).toMatch(
      /endo eval 'E\(agent\)\.forget\(\)' agent:controller-for-lal/,
    );
    expect(await run.forget()).toMatch(
      /^Forgot 1 turn of conversation, the digest, the searchable history, and the usage of 1 model call\./,
    );
    expect(await run.help()).toMatch(/no model calls since/);
    const memory = await stored(run);
    expect(JSON.stringify(memory.conversation)).not.toContain('marmalade');
    expect((memory.handled as string[]).length).toBe(1);
    dismissals.state.failing = false;
    run.provider.push(replyStep('two'));
    await run.send('what was the word?');
    await run.reply('two');
    expect(JSON.stringify(run.provider.requests.at(-1)!.messages)).not.toContain('marmalade');
  });
});

describe('the store of the previous version', () => {
  test('a version 1 memory loads: its conversation kept, usage and wake-ups starting empty', async () => {
    const v1 = JSON.stringify({
      version: 1,
      conversation: {
        digest: [{ text: '#1 from HOST: "the colour is teal" → replied', count: 1 }],
        omitted: 0,
        turns: [],
      },
      handled: ['id-of-an-old-message'],
    });
    const clock = makeManualClock();
    const run = await start({
      clock,
      prepare: async (host, name) => {
        await E(host.guest(name).powers).storeValue(v1, 'agent-memory');
      },
      steps: [replyStep('teal')],
    });
    await run.send('what colour?');
    await run.reply('teal');
    expect(JSON.stringify(run.provider.requests[0]!.messages)).toContain('the colour is teal');
    // Stored again at start (the greeting) and after the turn: wait for the turn's write.
    await expect
      .poll(async () => JSON.stringify((await stored(run)).usage))
      .toContain('scripted-model');
    const memory = await stored(run);
    expect(memory.version).toBe(VERSION);
    // Its message is no longer in the inbox: the key went at start (src/memory/handled-keys.ts).
    expect(memory.handled).toEqual([]);
    expect(memory.wakeUps).toEqual([]);
    expect(JSON.stringify(memory.usage)).toContain('scripted-model');
  });

  test('a version 3 memory (the release before pending asks were kept) loads and continues, saved in the current version', async () => {
    const clock = makeManualClock();
    const v3 = JSON.stringify({
      version: 3,
      conversation: {
        digest: [{ text: '#1 from HOST: "the colour is teal" → replied', count: 1 }],
        omitted: 0,
        turns: [],
      },
      handled: ['id-of-an-old-message'],
      usage: {
        since: clock.now() - 60_000,
        byModel: { 'old-model': { calls: 3, inputTokens: 30, outputTokens: 3 } },
        recent: [[clock.now() - 60_000, 33, 3]],
      },
      wakeUps: [
        {
          id: 'w1',
          at: clock.now() + 3_600_000,
          note: 'water the plants',
          setAt: clock.now() - 60_000,
        },
      ],
    });
    const run = await start({
      clock,
      prepare: async (host, name) => {
        await E(host.guest(name).powers).storeValue(v3, 'agent-memory');
      },
      steps: [replyStep('teal')],
    });
    await run.send('what colour?');
    await run.reply('teal');
    expect(JSON.stringify(run.provider.requests[0]!.messages)).toContain('the colour is teal');
    // Its message is no longer in the inbox: the key went at start (src/memory/handled-keys.ts).
    await expect.poll(async () => (await stored(run)).handled).toEqual([]);
    const memory = (await stored(run)) as unknown as Record<string, unknown> & {
      wakeUps: unknown[];
      usage: unknown;
    };
    expect(memory.version).toBe(VERSION);
    expect(memory.wakeUps).toHaveLength(1);
    expect(JSON.stringify(memory.usage)).toContain('old-model');
    expect(memory.asks).toEqual({ next: 1, pending: [] });
    expect(memory.holds).toEqual([]);
    expect(await run.help()).toMatch(/w1 at .* for HOST: "water the plants"/);
  });
});
