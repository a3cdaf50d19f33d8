/**
 * One decision per call (docs/architecture.md, "A call from decoding to
 * running"; behaviour 3.3, 4): a call's arguments are decoded once, and the
 * policy, the repeat guard, the HOST's approval request and the tool all see
 * that one value. So a denied op stays denied however its arguments are
 * written (double-encoded, with a byte-order mark, padded, by its former
 * tool name), a gated call is put to the HOST whole, and an approval given
 * across a restart runs only the identical call, once. Under lockdown,
 * through make() and E(), with the daemon double.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { turnEnds, guest, hostRequests } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeMailHost } from '../sim/mail-host/index.js';

const { start } = useAgents();

const lastResult = (run: AgentRun, request: number) =>
  run.provider.requests[request]!.messages.at(-1)!.content;
const lastError = (run: AgentRun, request: number) =>
  (JSON.parse(lastResult(run, request)) as { error?: string }).error;

const makeBox = JSON.stringify({ op: 'makeDirectory', path: 'box' });
const makeBoxByOldName = JSON.stringify({ petNamePath: ['box'] });

// The ways a model writes the same call; each must be judged as the op it runs.
const spellings: [string, string, string][] = [
  ['double-encoded', 'names', JSON.stringify(makeBox)],
  ['prefixed with a byte-order mark', 'names', `\uFEFF${makeBox}`],
  ['padded with whitespace', 'names', `\n\t  ${makeBox}  \n`],
  ['named by its former tool name', 'makeDirectory', makeBoxByOldName],
  ['by its former name, double-encoded', 'makeDirectory', JSON.stringify(makeBoxByOldName)],
  ['by its former name, with a byte-order mark', 'makeDirectory', `\uFEFF${makeBoxByOldName}`],
];

describe('a denied op stays denied however its arguments are written', () => {
  test.each(spellings)('%s: never runs and never asks', async (_how, name, text) => {
    const run = await start({
      // Approval of the whole group would ask about any names call the deny list let through.
      env: {
        LAL_TOOLS_DENY: 'makeDirectory',
        LAL_TOOLS_APPROVE: 'names',
        LAL_TRUSTED_SENDERS: 'alice',
      },
      steps: [
        callTool(name, text),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('make a box');
    await run.reply('done');
    expect(lastError(run, 1)).toMatch(/"makeDirectory" is not allowed here \(LAL_TOOLS_DENY\)/);
    expect(await guest(run).has('box')).toBe(false);
    expect(await hostRequests(run)).toEqual([]);
  });

  test('a group call whose op cannot be read is refused, and nothing runs', async () => {
    const run = await start({
      steps: [
        callTool('names', { op: ['makeDirectory'], path: 'box' }),
        callTool('names', '{"op": "makeDirectory", "path": "box"'),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('make a box');
    await run.reply('done');
    expect(lastError(run, 1)).toMatch(/names has no op \["makeDirectory"\]: use one of list, /);
    expect(lastError(run, 2)).toMatch(/The arguments are not valid JSON/);
    expect(await guest(run).has('box')).toBe(false);
  });
});

describe('a gated op is put to the HOST however its arguments are written', () => {
  test.each(spellings)('%s: asked, not run', async (_how, name, text) => {
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [callTool(name, text), say('')],
    });
    await run.send('make a box');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(asked.description).toMatch(
      /^While serving message #\d+ from HOST, Lal asks to call makeDirectory /,
    );
    await expect.poll(() => turnEnds(run)).toBe(1);
    expect(JSON.parse(lastResult(run, 1))).toMatchObject({ status: 'pending' });
    expect(await guest(run).has('box')).toBe(false);
  });
});

describe('the HOST approves the whole call', () => {
  const big = (tail: string) => `${'0123456789'.repeat(1_000)}${tail}`;

  test('a call with 10 KB of arguments is shown whole and runs exactly that', async () => {
    const text = big('-the end');
    let origin = -1;
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('send', { recipient: 'HOST', strings: [text] });
        },
        say(''),
      ],
    });
    await run.send('send me the long text');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(asked.description).toContain(JSON.stringify({ recipient: 'HOST', strings: [text] }));
    await expect.poll(() => turnEnds(run)).toBe(1);
    run.provider.push(request => {
      expect(request.messages.at(-1)!.content).toMatch(/^APPROVED: HOST approved the call send/);
      return callTool('reply', { messageNumber: origin, strings: ['sent'] });
    });
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked.number, 'yes');
    const sent = await run.reply(/^0123456789/);
    expect(textOf(sent)).toBe(text);
    await run.reply('sent');
  });

  test('after a restart the allowance runs only the identical call, and once', async () => {
    const first = big('-first');
    const other = big('-other');
    const sendIt = (text: string) => callTool('send', { recipient: 'HOST', strings: [text] });
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [() => sendIt(first), say('')],
    });
    await run.send('send me the long text');
    await expect.poll(() => turnEnds(run)).toBe(1);
    const [asked] = await hostRequests(run);
    const results: string[] = [];
    await run.restart([
      request => {
        expect(request.messages.at(-1)!.content).toMatch(
          /^APPROVED: HOST approved the call send .*, but I restarted meanwhile/,
        );
        // The same first 10,000 characters, another call.
        return sendIt(other);
      },
      request => {
        results.push(request.messages.at(-1)!.content);
        return sendIt(first);
      },
      request => {
        results.push(request.messages.at(-1)!.content);
        return sendIt(first);
      },
      request => {
        results.push(request.messages.at(-1)!.content);
        return say('');
      },
    ]);
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked!.number, 'yes');
    await expect.poll(() => results.length).toBe(3);
    const [otherCall, identical, again] = results;
    expect(JSON.parse(otherCall!)).toMatchObject({ status: 'pending' });
    expect(identical).toMatch(/"sent":true/);
    expect(JSON.parse(again!)).toMatchObject({ status: 'pending' });
    // The identical call ran once; the other one and the repeat were put to the HOST.
    const sent = asMessages(await E(run.host.host).listMessages()).filter(
      message => message.type === 'package' && textOf(message).startsWith('0123456789'),
    );
    expect(sent.map(textOf)).toEqual([first]);
    expect(await hostRequests(run)).toHaveLength(3);
  });
});

describe('an approval stored by the previous release (its text only, cut at 400 characters)', () => {
  /** Makes the store look as the previous release left it: the shown text, no digest. */
  const storeAsBefore = async (run: AgentRun, action: string) => {
    const memory = JSON.parse((await guest(run).lookup(['agent-state', 'memory'])) as string) as {
      asks: { pending: { kind: string; detail: Record<string, unknown> }[] };
    };
    const [approval] = memory.asks.pending;
    expect(approval).toMatchObject({ kind: 'approval', detail: { digest: expect.any(String) } });
    approval!.detail = { action };
    await guest(run).storeValue(harden(JSON.stringify(memory)), ['agent-state', 'memory']);
  };

  const approveAcrossRestart = async (text: string, action: (shown: string) => string) => {
    const sendIt = () => callTool('send', { recipient: 'HOST', strings: [text] });
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [sendIt, say('')],
    });
    await run.send('send it');
    await expect.poll(() => turnEnds(run)).toBe(1);
    const [asked] = await hostRequests(run);
    const shown =
      /^While serving message #\d+ from HOST, Lal asks to call (send \{.*\}), asked because LAL_TOOLS_APPROVE gates/s.exec(
        String(asked!.description),
      )![1]!;
    await storeAsBefore(run, action(shown));
    const seen: string[] = [];
    await run.restart([
      request => {
        seen.push(request.messages.at(-1)!.content);
        return sendIt();
      },
      request => {
        seen.push(request.messages.at(-1)!.content);
        return say('');
      },
    ]);
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked!.number, 'yes');
    await expect.poll(() => seen.length).toBe(2);
    return { run, seen };
  };

  test('a whole call still runs once without asking', async () => {
    const { run, seen } = await approveAcrossRestart('hello', shown => shown);
    expect(seen[0]).toMatch(/^APPROVED: .*it runs without asking/s);
    expect(seen[1]).toMatch(/"sent":true/);
    expect(await hostRequests(run)).toHaveLength(1);
  });

  test('a cut call runs nothing, and calling it again asks the HOST again', async () => {
    const { run, seen } = await approveAcrossRestart(
      'x'.repeat(1_000),
      shown => `${shown.slice(0, 400)}…`,
    );
    expect(seen[0]).toMatch(/^APPROVED: .*kept only part of the call, so it did not run/s);
    expect(JSON.parse(seen[1]!)).toMatchObject({ status: 'pending' });
    expect(await hostRequests(run)).toHaveLength(2);
  });
});

describe('the HOST approves the whole code (newest daemon, host-approved evaluation)', () => {
  test('10 KB of code is shown whole, and that code runs', async () => {
    const source = `/* ${'why '.repeat(2_500)}*/ 6 * 7`;
    const run = await start({
      profile: 'newest',
      steps: [
        () =>
          callTool('evaluate', { source, codeNames: [], petNamePaths: [], resultName: 'answer' }),
        say(''),
      ],
    });
    await run.send('work it out');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    // The code comes whole just before the request, in a message the chat renders (issue 23, defect 7).
    const inbox = (await E(run.host.host).listMessages()) as unknown as Message[];
    const code = inbox
      .filter(message => message.type === 'package' && message.number < asked.number)
      .at(-1)!;
    expect((code.strings ?? []).join('')).toContain(`\n${source}\n`);
    await expect.poll(() => turnEnds(run)).toBe(1);
    run.provider.push(say(''));
    await E(run.host.host).storeValue(harden('yes'), 'approval');
    await E(run.host.host).resolve(asked.number, 'approval');
    await expect.poll(() => guest(run).has('answer')).toBe(true);
    expect(await guest(run).lookup('answer')).toBe(42);
  });
});

describe('arguments are checked against the one schema the model was offered, before anyone judges the call', () => {
  const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

  test('a gated built-in op whose arguments do not fit is told what to fix, and the HOST is not asked', async () => {
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'move', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [
        // `to` is missing; `fromPath` is the op's former name for `path`.
        callTool('names', { op: 'move', fromPath: 'a' }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('move it');
    await run.reply('done');
    expect(lastError(run, 1)).toBe('move: to is required');
    expect(await hostRequests(run)).toEqual([]);
  });

  test('a gated FaeTool called with arguments its schema refuses is told why, never asked about, never run', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'math-tool': 'math-tool' },
      env: { LAL_TOOLS_APPROVE: 'math', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [
        callTool('math', { operation: 'add', a: [1], b: 2 }),
        callTool('math', { operation: 'add', b: 2 }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('add them');
    await run.reply('done');
    expect(lastError(run, 1)).toBe('math: a must be a number, got an array');
    expect(lastError(run, 2)).toBe('math: a is required');
    expect(await hostRequests(run)).toEqual([]);
  });
});
