/**
 * Each party pays its own way (docs/behaviour.md 9.12), through make() with
 * a peer on both daemons: schedules and helpers are counted against the
 * party whose turn made them, each party with slots of its own, so mallory
 * filling hers never refuses the HOST's; an outcome turn is the peer's turn,
 * so one message cannot buy an endless chain of helpers; cancelling a
 * helper ends the helpers it made; forget() ends what the forgotten turns
 * set going; help() shows each party's counts.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, DAEMON_PROFILES, type DaemonProfile } from '../sim/mail-host/index.js';
import { callTool, say, type RecordedRequest, type Step } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { mailAs, withPeers } from './support/among-others.js';

const { start } = useAgents();

const isHelpers = (request: RecordedRequest) =>
  request.messages[0]?.content.startsWith('You are a helper') === true;

/** A model step that waits until its call is aborted (a helper at work). */
const hanging: Step = (_request, signal) =>
  new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(new Error('aborted')));
  });

/** The agent's steps and its helpers' are told apart by the helper's system prompt. */
const routed = (agent: () => Step, helper: () => Step, count = 80): Step[] =>
  Array.from({ length: count }, (): Step => (request, signal, onText) => {
    const next = isHelpers(request) ? helper() : agent();
    return typeof next === 'function' ? next(request, signal, onText) : (next as never);
  });

const startFae = (profile: DaemonProfile, env: Record<string, string>, steps: Step[] = []) =>
  start({
    host: makeMailHost({ profile }),
    persona: 'fae',
    env,
    steps,
    // mallory, whom the HOST introduced: the agent knows her by name.
    prepare: withPeers(['mallory'], async (host, name) => {
      await E(host.host).copy(['mallory'], [`profile-for-${name}`, 'mallory']);
    }),
  });

const replyTo = (request: RecordedRequest, text: string) =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

const lastResult = (request: RecordedRequest) => request.messages.at(-1)?.content ?? '';

const malloryHears = (run: AgentRun, text: string) =>
  waitForMessage(run.host, message => message.type === 'package' && textOf(message) === text, {
    who: 'mallory',
  });

describe.each(DAEMON_PROFILES)('each party pays its own way (%s daemon)', profile => {
  test("mallory filling her wake-up slots never refuses the HOST's schedule; help() counts each party", async () => {
    const run = await startFae(profile, { LAL_MAX_WAKE_UPS: '1' });
    const results: string[] = [];
    const scheduleThenReply = (text: string): Step[] => [
      () => callTool('schedule', { note: 'look again', delaySeconds: 3600 }),
      request => {
        results.push(lastResult(request));
        return replyTo(request, text);
      },
    ];
    run.provider.push(...scheduleThenReply('first'));
    await mailAs(run, 'mallory', 'remind me in an hour');
    await malloryHears(run, 'first');
    run.provider.push(...scheduleThenReply('second'));
    await mailAs(run, 'mallory', 'and again');
    await malloryHears(run, 'second');
    expect(results[1]).toMatch(
      /1 wake-ups are pending already for mallory, the most each party may have \(LAL_MAX_WAKE_UPS\)/,
    );
    run.provider.push(...scheduleThenReply('yours too'));
    await run.send('remind me in an hour');
    await run.reply('yours too');
    expect(results[2]).toMatch(/"scheduled":"w\d+"/);
    const host = run.host.special.host;
    expect(await run.help()).toContain(
      `per party (LAL_MAX_WAKE_UPS each): ${host} 1 of 1, mallory 1 of 1`,
    );
  });

  test("mallory's helper running never refuses the HOST's; cancelling a helper ends the helpers it made", async () => {
    let helperCalls = 0;
    const run = await startFae(
      profile,
      { LAL_MAX_HELPERS: '2' },
      routed(
        () => request =>
          lastResult(request).includes('"helperId"') || lastResult(request).includes('"error"')
            ? replyTo(request, lastResult(request).includes('"helperId"') ? 'made' : 'refused')
            : callTool('mail', { op: 'helper', description: 'count the stars', grant: ['helper'] }),
        () => (request, signal, onText) => {
          helperCalls += 1;
          // Each helper makes one of its own (the second's is refused: too deep), then works on.
          return request.messages.some(message => message.role === 'tool')
            ? hanging(request, signal, onText)
            : callTool('mail', { op: 'helper', description: 'count half', grant: [] });
        },
      ),
    );
    await mailAs(run, 'mallory', 'count the stars');
    await malloryHears(run, 'made');
    // Her helper made one of its own: her two slots are full.
    await expect.poll(() => run.helpers(), { timeout: 10_000 }).toMatch(/^h2: "count half"/m);
    await run.send('count the stars for me too');
    await run.reply('made');
    await expect.poll(() => run.helpers(), { timeout: 10_000 }).toMatch(/^h4: "count half"/m);
    const host = run.host.special.host;
    expect(await run.helpers()).toContain(
      `per party (LAL_MAX_HELPERS each): ${host} 2 of 2, mallory 2 of 2`,
    );
    expect(await run.helpers('cancel', 'h3')).toMatch(
      /^Cancelled h3: "count the stars", and the 1 helper it made \(h4\)/,
    );
    await expect.poll(() => run.helpers(), { timeout: 10_000 }).not.toMatch(/^h[34]:/m);
    expect(await run.helpers()).toMatch(/^h1: "count the stars"[\s\S]*^h2: "count half"/m);
    expect(helperCalls).toBeGreaterThan(0);
  });

  test("a helper's task inside the agent's approval request is escaped and marked as the model's words", async () => {
    const task = 'tidy \u202Eeman ym\u202C up';
    const run = await startFae(
      profile,
      { LAL_TOOLS_APPROVE: 'names' },
      routed(
        () => request =>
          lastResult(request).includes('"helperId"')
            ? replyTo(request, 'made')
            : callTool('mail', { op: 'helper', description: task, grant: ['names'] }),
        () => request =>
          request.messages.some(message => message.role === 'tool')
            ? say('asked')
            : callTool('names', { op: 'list' }),
      ),
    );
    await run.send('tidy up with a helper');
    await run.reply('made');
    const asked = await waitForMessage(run.host, message => message.type === 'request');
    const text = String(asked.description);
    expect(text).not.toContain('\u202E');
    expect(text).toMatch(
      /Fae's helper h\d+ \(task, in the model's words: "tidy \\u\{202E\}eman ym\\u\{202C\} up"\) asks to call /,
    );
  });

  test("the model's words in the agent's own lists reach the HOST escaped: a note, a task", async () => {
    const words = 'check \u202Eeman ym\u202C now';
    const run = await startFae(
      profile,
      {},
      routed(
        () => request => {
          const result = lastResult(request);
          if (result.includes('"helperId"')) return replyTo(request, 'done');
          return result.includes('"scheduled"')
            ? callTool('mail', { op: 'helper', description: words, grant: [] })
            : callTool('schedule', { note: words, delaySeconds: 3600 });
        },
        () => hanging,
      ),
    );
    await run.send('remind me and start a helper');
    await run.reply('done');
    const escaped = 'check \\u{202E}eman ym\\u{202C} now';
    for (const listed of [await run.schedules(), await run.helpers(), await run.help()]) {
      expect(listed).not.toContain('\u202E');
      expect(listed).toContain(escaped);
    }
  });

  test("an outcome turn is the peer's turn: one message cannot buy an endless chain of helpers", async () => {
    let peerTurns = 0;
    const run = await startFae(
      profile,
      { LAL_MAX_PEER_EXCHANGES: '3' },
      routed(
        // Each of mallory's turns (her message, then each outcome) makes a helper and answers her in
        // one reply, so the turn ends there and the helper's end comes as an outcome turn of its own.
        () => request => {
          peerTurns += 1;
          const helper = callTool('mail', { op: 'helper', description: 'and again', grant: [] });
          const answer = replyTo(request, `turn ${peerTurns}`);
          return { ...helper, toolCalls: [...helper.toolCalls!, ...answer.toolCalls!] };
        },
        () => say('done'),
      ),
    );
    await mailAs(run, 'mallory', 'keep making helpers');
    const told = await waitForMessage(
      run.host,
      message =>
        message.type === 'package' &&
        /I stopped answering mallory after 3 turns/.test(textOf(message)),
      { timeoutMs: 15_000 },
    );
    expect(told).toBeDefined();
    expect(peerTurns).toBeLessThanOrEqual(4);
  });

  test("forget() ends the helpers and the wake-ups of what it forgets; the HOST's own schedule stays", async () => {
    const run = await startFae(
      profile,
      {},
      routed(
        () => request => {
          const result = lastResult(request);
          if (result.includes('"helperId"') || result.includes('"scheduled"'))
            return replyTo(request, 'done');
          return /Message #\d+ from mallory/.test(request.messages.at(-1)?.content ?? '')
            ? callTool('schedule', { note: 'ping mallory', delaySeconds: 3600 })
            : /Message #\d+ from [^:]+: make a helper/.test(request.messages.at(-1)?.content ?? '')
              ? callTool('mail', { op: 'helper', description: 'watch', grant: [] })
              : callTool('schedule', { note: 'stretch', delaySeconds: 3600 });
        },
        () => hanging,
      ),
    );
    await mailAs(run, 'mallory', 'ping me later');
    await malloryHears(run, 'done');
    await run.send('remind me to stretch');
    await run.reply('done');
    await run.send('make a helper');
    await run.reply('done');
    const said = await run.forget();
    expect(said).toMatch(
      /1 helper stopped; 1 wake-up set for others or after reading their words ended \(w1\)/,
    );
    expect(await run.schedules()).toMatch(/^- w2 at .*"stretch"$/m);
    expect(await run.schedules()).not.toMatch(/ping mallory/);
    await expect.poll(() => run.helpers(), { timeout: 10_000 }).toBe('No helpers are running.');
  });
});
