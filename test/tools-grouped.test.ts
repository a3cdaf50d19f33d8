/**
 * The built-in tools grouped by purpose (`names`, `mail`), under lockdown
 * through make() and the daemon double: the first request carries few tool
 * definitions; an op is called through its group or by the tool name it had
 * before (structured or recovered from text); each op's arguments are
 * checked with errors that name the op; policies name groups or ops.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
import { latestMessageNumber, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { schemasFor } from '../src/prompt/speak-generation.js';
import { offeredTools, recoverToolCalls } from '../src/reply/recover-tool-calls.js';
import { digestTurn } from '../src/history/digest.js';

const { start } = useAgents();

const results = (request: RecordedRequest) =>
  request.messages.filter(message => message.role === 'tool').map(message => message.content);
const opsOf = (request: RecordedRequest, group: string) =>
  request.tools.find(tool => tool.function.name === group)?.function.parameters.properties?.op
    ?.enum;
const guestHas = async (run: AgentRun, ...path: string[]) =>
  E(run.host.guest(run.name).powers).has(...path);
const replyDone = (request: RecordedRequest) =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] });

describe('the first request', () => {
  test('offers six tool definitions, every former tool reachable as a tool or an op', async () => {
    const run = await start({ steps: [say('ok')] });
    await run.send('hi');
    await run.reply('ok');
    const [first] = run.provider.requests;
    expect(first!.toolNames.sort()).toEqual([
      'evaluate',
      'mail',
      'names',
      'reply',
      'schedule',
      'send',
    ]);
    expect(opsOf(first!, 'names')).toEqual([
      'list',
      'has',
      'lookup',
      'identify',
      'inspectCapability',
      'remove',
      'move',
      'copy',
      'makeDirectory',
      'store',
      'help',
    ]);
    // messageHistory needs the newest daemon.
    expect(opsOf(first!, 'mail')).toEqual([
      'listMessages',
      'request',
      'dismiss',
      'adopt',
      'adoptTool',
      'resolve',
      'reject',
      'recall',
      'helper',
    ]);
    expect(JSON.stringify(first!.tools).length).toBeLessThan(3_500);
  });

  test('on the newest daemon mail also offers messageHistory', async () => {
    const run = await start({ profile: 'newest', steps: [say('ok')] });
    await run.send('hi');
    await run.reply('ok');
    expect(opsOf(run.provider.requests[0]!, 'mail')).toContain('messageHistory');
  });
});

describe('calling an op', () => {
  test('through its group, or by its former tool name, with old or new argument names', async () => {
    const run = await start({
      steps: [
        callTool('names', { op: 'makeDirectory', path: 'box' }),
        callTool('makeDirectory', { petNamePath: ['crate'] }),
        callTool('names', { op: 'move', path: 'crate', to: 'box/crate' }),
        callTool('copy', { fromPath: 'box', toPath: 'box-too' }),
        callTool('names', { op: 'list', path: 'box' }),
        callTool('list', {}),
        replyDone,
      ],
    });
    await run.send('organise');
    await run.reply('done');
    const seen = results(run.provider.requests.at(-1)!);
    expect(seen[0]).toContain('"made"');
    expect(seen[1]).toContain('"made"');
    expect(seen[2]).toContain('"moved"');
    expect(seen[4]).toBe('["crate"]');
    expect(seen[5]).toMatch(/"box".*"box-too"/);
    expect(await guestHas(run, 'box', 'crate')).toBe(true);
  });

  test('mail ops: listMessages and dismiss through the group', async () => {
    const run = await start({
      steps: [
        callTool('mail', { op: 'listMessages' }),
        request => callTool('mail', { op: 'dismiss', messageNumber: latestMessageNumber(request) }),
        say('done'),
      ],
    });
    await run.send('two');
    await run.reply('done');
    const seen = results(run.provider.requests.at(-1)!);
    expect(seen[0]).toMatch(/"text":"two"/);
    expect(seen[1]).toMatch(/"dismissed"/);
  });

  test('mail ops on the newest daemon: messageHistory shows each revision of a message the host edited', async () => {
    const run = await start({
      profile: 'newest',
      steps: [
        async request => {
          const hostCopy = (
            (await E(run.host.host).listMessages()) as unknown as {
              number: bigint;
              strings: string[];
            }[]
          ).find(message => message.strings[0] === 'draft one')!;
          await E(run.host.host).editMessage(hostCopy.number, ['draft two'], [], [], {
            done: false,
          });
          return callTool('mail', {
            op: 'messageHistory',
            messageNumber: latestMessageNumber(request),
          });
        },
        replyDone,
      ],
    });
    await run.send('draft one');
    await run.reply('done');
    const [history] = results(run.provider.requests[1]!);
    const revisions = JSON.parse(history!) as {
      revision: number;
      text: string;
      done: boolean;
      date: string;
    }[];
    expect(revisions.map(({ revision, text, done }) => ({ revision, text, done }))).toEqual([
      { revision: 1, text: 'draft one', done: true },
      { revision: 2, text: 'draft two', done: false },
    ]);
    for (const { date } of revisions) expect(Number.isNaN(Date.parse(date))).toBe(false);
  });

  test('adoptTool refuses a tool name that is a path, and nothing is adopted', async () => {
    const run = await start({
      steps: [
        request =>
          callTool('mail', {
            op: 'adoptTool',
            messageNumber: latestMessageNumber(request),
            edgeName: 'tool',
            toolName: 'tools/sum',
          }),
        replyDone,
      ],
    });
    await run.send('a tool', { edgeNames: ['tool'], petNames: ['AGENT'] });
    await run.reply('done');
    expect(JSON.parse(results(run.provider.requests[1]!)[0]!)).toEqual({
      error: 'adoptTool: toolName must be one pet name, without "/"',
    });
    expect(await guestHas(run, 'tools', 'sum')).toBe(false);
  });

  test('a call by a former name written as text is recovered against the grouped tool', () => {
    const offered = offeredTools(schemasFor(BUILTIN_SCHEMAS, undefined));
    const found = recoverToolCalls(
      '<tool_call>\n{"name": "list", "arguments": {}}\n</tool_call>',
      offered,
    );
    expect(found.calls.map(call => call.name)).toEqual(['list']);
    // An op the daemon does not offer is not a callable name.
    expect(offered.has('messageHistory')).toBe(false);
    expect(offered.has('names')).toBe(true);
  });
});

test('the digest of a folded turn names grouped calls by their op', () => {
  const line = digestTurn({
    title: '#3 from HOST: "tidy"',
    messages: [
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'names', arguments: '{"op":"list"}' },
          { id: 'b', name: 'dismiss', arguments: '{"messageNumber":2}' },
        ],
      },
    ],
  });
  expect(line).toBe('#3 from HOST: "tidy" → used list, dismiss');
});

describe('argument errors name the op', () => {
  test('a missing or unknown op, a missing argument, and arguments that are not JSON', async () => {
    const run = await start({
      steps: [
        callTool('names', {}),
        callTool('names', { op: 'frobnicate' }),
        callTool('names', { op: 'dismiss' }),
        callTool('names', { op: 'move', path: 'a' }),
        callTool('mail', { op: 'adopt', messageNumber: 1 }),
        callTool('names', '{"op": "list", path: }'),
        replyDone,
      ],
    });
    await run.send('try');
    await run.reply('done');
    const errors = results(run.provider.requests.at(-1)!).map(
      text => (JSON.parse(text) as { error: string }).error,
    );
    expect(errors[0]).toBe(
      'op is required: one of list, has, lookup, identify, inspectCapability, remove, move, copy, makeDirectory, store, help',
    );
    expect(errors[1]).toMatch(/^names has no op "frobnicate": use one of list, /);
    expect(errors[2]).toMatch(/^names has no op "dismiss"/);
    expect(errors[3]).toBe('move: to is required');
    expect(errors[4]).toBe('adopt: petName is required');
    expect(errors[5]).toMatch(/not (valid )?JSON/i);
  });

  test('an unknown tool is told the new names', async () => {
    const run = await start({ steps: [callTool('frobnicate', {}), replyDone] });
    await run.send('try');
    await run.reply('done');
    const [error] = results(run.provider.requests.at(-1)!);
    expect(error).toMatch(/Unknown tool \\"frobnicate\\"\. The tools you have are: .*names.*mail/);
  });
});

describe('policies name a group or an op', () => {
  test('denying an op takes it out of the group, and refuses it by either name; the rest of the group works', async () => {
    const run = await start({
      env: { LAL_TOOLS_DENY: 'remove' },
      steps: [
        callTool('names', { op: 'makeDirectory', path: 'box' }),
        callTool('names', { op: 'remove', path: 'box' }),
        callTool('remove', { petNamePath: 'box' }),
        replyDone,
      ],
    });
    await run.send('tidy');
    await run.reply('done');
    const [first] = run.provider.requests;
    expect(opsOf(first!, 'names')).not.toContain('remove');
    expect(opsOf(first!, 'names')).toContain('list');
    const seen = results(run.provider.requests.at(-1)!);
    expect(seen[1]).toMatch(/The tool \\"remove\\" is not allowed here \(LAL_TOOLS_DENY\)/);
    expect(seen[2]).toMatch(/The tool \\"remove\\" is not allowed here \(LAL_TOOLS_DENY\)/);
    expect(await guestHas(run, 'box')).toBe(true);
  });

  test('denying a group takes all its ops, whatever name a call uses', async () => {
    const run = await start({
      env: { LAL_TOOLS_DENY: 'names' },
      steps: [callTool('list', {}), callTool('names', { op: 'list' }), replyDone],
    });
    await run.send('look');
    await run.reply('done');
    expect(run.provider.requests[0]!.toolNames).not.toContain('names');
    const seen = results(run.provider.requests.at(-1)!);
    expect(seen[0]).toMatch(/not allowed here \(LAL_TOOLS_DENY\)/);
    expect(seen[1]).toMatch(/not allowed here \(LAL_TOOLS_DENY\)/);
  });

  test('approval of an op gates it when called through its group', async () => {
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [callTool('names', { op: 'makeDirectory', path: 'box' }), say('')],
    });
    await run.send('make a box');
    await expect.poll(() => run.provider.requests.length).toBe(2);
    expect(JSON.parse(results(run.provider.requests[1]!)[0]!)).toMatchObject({ status: 'pending' });
    expect(await guestHas(run, 'box')).toBe(false);
  });
});
