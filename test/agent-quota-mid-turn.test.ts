/**
 * The hourly budgets (LAL_MAX_CALLS_PER_HOUR, LAL_MAX_TOKENS_PER_HOUR) are
 * checked before every model call, not only when work starts: a turn that
 * would go past one stops there. It ends cleanly: the sender hears why and
 * when the message is taken up again, the turn is closed in the history,
 * and the message stays in the inbox and is served again once the budget
 * frees up (behaviour 7.6). A wake-up or an outcome that comes due while
 * the budget is spent waits for it too, and is served then. Under lockdown,
 * through make() and E(), with a manual clock.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say, type Step } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { makeManualClock } from './support/manual-clock.js';

const HOUR = 60 * 60_000;
const { start } = useAgents();

const stored = async (run: AgentRun) =>
  JSON.parse(
    (await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory'])) as string,
  ) as {
    conversation: { turns: { messages: { role: string; content: string }[] }[] };
  };

describe('a quota spent in the middle of a turn', () => {
  test('stops the turn before the call that would go past it; the sender is told; the message is served again later', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '2' },
      steps: [callTool('list', {}), callTool('list', {}), replyStep('never said')],
    });
    await run.send('look around');
    const told = textOf(await run.reply(/hour's budget/));
    expect(told).toMatch(
      /^I have used this hour's budget \(2 of 2 model calls this hour \(`LAL_MAX_CALLS_PER_HOUR`\)\) part-way through your message #\d+\. It is kept, and I will take it up again at 2026-11-23T10:00:00\.000Z \(in about 60 minutes\)\.$/,
    );
    // Two calls were made, not a third.
    expect(run.provider.requests).toHaveLength(2);
    expect(run.provider.remaining()).toBe(1);
    // The turn is closed in the history with one line saying why.
    await expect
      .poll(
        async () => (await stored(run)).conversation.turns.at(-1)?.messages.at(-1)?.content ?? '',
      )
      .toMatch(/hour's budget/);
    // The message waits in the inbox.
    const inbox = asMessages(await E(run.host.guest(run.name).powers).listMessages());
    expect(inbox.some(message => textOf(message) === 'look around')).toBe(true);
    // When the hour has passed it is taken up again, and answered.
    clock.advance(HOUR);
    await run.reply('never said');
    expect(run.provider.requests).toHaveLength(3);
    expect(JSON.stringify(run.provider.requests[2]!.messages)).toContain('look around');
  });

  test('a token budget spent by the first call stops the turn before the second', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_TOKENS_PER_HOUR: '10' },
      steps: [callTool('list', {}), replyStep('never said')],
    });
    await run.send('look around');
    expect(textOf(await run.reply(/hour's budget/))).toMatch(
      /tokens this hour \(`LAL_MAX_TOKENS_PER_HOUR`\)\) part-way through your message/,
    );
    expect(run.provider.requests).toHaveLength(1);
  });
});

describe('outcome and wake-up turns stopped by the quota', () => {
  test('an outcome turn stopped part-way is taken up again when the budget frees up', async () => {
    const clock = makeManualClock();
    let origin = -1;
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '3' },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('request', { recipient: 'HOST', description: 'the door code' });
        },
        say(''),
        // The outcome's turn: one call, then the budget is spent.
        callTool('list', {}),
      ],
    });
    await run.send('open the door');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    await E(run.host.host).reject(asked.number, 'not telling');
    expect(textOf(await run.reply(/hour's budget/))).toMatch(
      /part-way through your message #\d+\. It is kept/,
    );
    expect(run.provider.requests).toHaveLength(3);
    run.provider.push(request => {
      expect(JSON.stringify(request.messages.at(-1))).toMatch(
        /DECLINED: HOST did not grant your request r1/,
      );
      return callTool('reply', { messageNumber: origin, strings: ['No code, sorry'] });
    });
    clock.advance(HOUR);
    await run.reply('No code, sorry');
  });

  test('a wake-up turn stopped part-way fires again when the budget frees up', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '3' },
      steps: [callTool('schedule', { note: 'say hello', delaySeconds: 60 }), say('')],
    });
    await run.send('remind me');
    await expect.poll(async () => run.help()).toMatch(/w1 at/);
    // Due after a minute, with room for one call: its turn stops before the second.
    run.provider.push(callTool('list', {}));
    clock.advance(60_000);
    expect(textOf(await run.reply(/hour's budget/))).toMatch(/part-way through your message #\d+/);
    expect(run.provider.requests).toHaveLength(3);
    run.provider.push(request => {
      expect(JSON.stringify(request.messages)).toMatch(/WAKE-UP w1/);
      return callTool('send', { recipient: 'HOST', strings: ['hello'] });
    });
    clock.advance(HOUR);
    await run.reply('hello');
  });
});

describe('outcome and wake-up turns due while the budget is spent', () => {
  test('a wake-up due while the budget is spent waits for it, then fires once', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '2' },
      steps: [callTool('schedule', { note: 'say hello', delaySeconds: 60 }), say('')],
    });
    await run.send('remind me');
    await expect.poll(async () => run.help()).toMatch(/w1 at/);
    // Due now, with the budget spent by the two calls of the turn that set it.
    clock.advance(60_000);
    // A message after it waits too, and its sender is told: the wake-up, queued first, was held first.
    // The wake-up's setter is told once that it is postponed (docs/behaviour.md 7.8).
    expect(textOf(await run.reply(/^Wake-up w1 .* is postponed/))).toMatch(/"say hello"/);
    await run.send('anyone there?');
    expect(textOf(await run.reply(/^I have used this hour's budget/))).toMatch(
      /^I have used this hour's budget \(2 of 2 model calls this hour .*\)\. Your message #\d+ is kept/,
    );
    expect(run.provider.requests).toHaveLength(2);
    run.provider.push(
      request => {
        expect(JSON.stringify(request.messages)).toMatch(/WAKE-UP w1/);
        return callTool('send', { recipient: 'HOST', strings: ['hello'] });
      },
      say(''),
      replyStep('still here'),
    );
    clock.advance(HOUR);
    await run.reply('hello');
    // The wake-up's turn spends the new hour's two calls: the message waits for the next.
    await expect.poll(() => run.provider.requests.length).toBe(4);
    clock.advance(HOUR);
    await run.reply('still here');
    expect(run.provider.requests).toHaveLength(5);
  });

  test('an outcome that arrives while the budget is spent is not lost: its turn runs when the budget frees up', async () => {
    const clock = makeManualClock();
    let origin = -1;
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '2' },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('request', { recipient: 'HOST', description: 'the door code' });
        },
        say(''),
      ],
    });
    await run.send('open the door');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    await E(run.host.host).reject(asked.number, 'not telling');
    await run.send('anyone there?');
    await run.reply(/hour's budget/);
    expect(run.provider.requests).toHaveLength(2);
    // The outcome and the message each get a turn of one call, in whichever order they waited.
    const answer: Step = request =>
      /DECLINED: HOST did not grant your request r1/.test(JSON.stringify(request.messages.at(-1)))
        ? callTool('reply', { messageNumber: origin, strings: ['No code, sorry'] })
        : callTool('reply', {
            messageNumber: latestMessageNumber(request),
            strings: ['still here'],
          });
    run.provider.push(answer, answer);
    clock.advance(HOUR);
    await run.reply('No code, sorry');
    await run.reply('still here');
    expect(run.provider.requests).toHaveLength(4);
  });
});
