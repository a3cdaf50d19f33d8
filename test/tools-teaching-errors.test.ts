/**
 * Errors that teach (docs/behaviour.md 4.x): a built-in tool that fails on
 * a name that does not exist says what would have been right, through
 * make() in the daemon double: the edges a message carries (a real model
 * adopted `math` from a message whose edge is `math-tool`), the messages
 * in the inbox, the pet names nearest to the one asked for, the group that
 * has an op, the tools offered.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The error the latest tool result of a request holds (its whole text when it is no error). */
const lastResult = (request: RecordedRequest): string => {
  const text = request.messages.filter(message => message.role === 'tool').at(-1)!.content;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : text;
  } catch {
    return text;
  }
};

/** One call per step, then a reply; the result of each call is read from the request after it. */
const runCalls = async (
  calls: Step[],
  attach?: { edgeNames: string[]; petNames: string[] },
): Promise<{ run: AgentRun; results: string[] }> => {
  const run = await start({
    steps: [
      ...calls,
      request =>
        callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
    ],
    prepare: async (host, name) => {
      await E(host.host).storeValue(harden({ kind: 'a calculator' }), 'calculator');
      await E(host.host).provideGuest('bob', {});
      await E(host.host).provideGuest(name, {
        introducedNames: { calculator: 'calculator', bob: 'bob' },
      });
      const guest = E(host.guest(name).powers);
      await guest.makeDirectory(['things']);
      await guest.storeValue(harden('a note'), ['things', 'shopping-list']);
    },
  });
  await run.send('try these', attach);
  await run.reply('done');
  const results = run.provider.requests.slice(1).map(lastResult);
  return { run, results };
};

const step =
  (name: string, args: (request: RecordedRequest) => unknown): Step =>
  request =>
    callTool(name, args(request));

describe('errors that teach', () => {
  test('adoptTool with an edge the message lacks names the edges it has (upstream trace: math for math-tool)', async () => {
    const { results } = await runCalls(
      [
        step('mail', request => ({
          op: 'adoptTool',
          messageNumber: latestMessageNumber(request),
          edgeName: 'math',
          toolName: 'math',
        })),
        step('mail', request => ({
          op: 'adopt',
          messageNumber: latestMessageNumber(request),
          edgeName: 'maths',
          petName: 'm',
        })),
      ],
      { edgeNames: ['math-tool'], petNames: ['calculator'] },
    );
    expect(results[0]).toMatch(
      /adoptTool: .*"math".*message #\d+ carries one value, under the edge name "math-tool"/,
    );
    expect(results[1]).toMatch(/adopt: .*under the edge name "math-tool"/);
  });

  test('a message number not in the inbox names the ones that are', async () => {
    const { results } = await runCalls([
      step('reply', () => ({ messageNumber: 999, strings: ['hello?'] })),
      step('mail', () => ({ op: 'dismiss', messageNumber: 998 })),
    ]);
    expect(results[0]).toMatch(/there is no message #999; your inbox holds #\d+/);
    expect(results[1]).toMatch(/dismiss: .*there is no message #998; your inbox holds #\d+/);
  });

  test('a pet name that does not exist names the nearest ones', async () => {
    const { results } = await runCalls([
      step('names', () => ({ op: 'lookup', path: 'calculater' })),
      step('send', () => ({ recipient: 'bobb', strings: ['hi'] })),
      step('names', () => ({ op: 'remove', path: ['things', 'shoping-list'] })),
      step('mail', () => ({ op: 'request', recipient: 'Bob', description: 'a value' })),
      step('names', () => ({ op: 'lookup', path: 'zebra' })),
    ]);
    expect(results[0]).toMatch(
      /lookup: .*there is no "calculater" in your directory; the nearest names there: "calculator"/,
    );
    expect(results[1]).toMatch(
      /there is no "bobb" in your directory; the nearest names there: "bob"/,
    );
    expect(results[2]).toMatch(
      /remove: .*there is no "shoping-list" in "things"; the nearest names there: "shopping-list"/,
    );
    expect(results[3]).toMatch(
      /there is no "Bob" in your directory; the nearest names there: "bob"/,
    );
    // Nothing near: the names that are there, a few of them.
    expect(results[4]).toMatch(/there is no "zebra" in your directory; the names there: "[^"]+"/);
  });

  test('an op of the other group says which group has it; an unknown tool names the nearest', async () => {
    const { results } = await runCalls([
      step('mail', () => ({ op: 'lookup', path: 'calculator' })),
      step('names', () => ({ op: 'dismisss' })),
      step('replyy', () => ({ messageNumber: 1, strings: ['x'] })),
    ]);
    expect(results[0]).toMatch(
      /mail has no op "lookup" \(lookup is an op of names\): use one of listMessages, /,
    );
    expect(results[1]).toMatch(/names has no op "dismisss": use one of list, has, lookup/);
    expect(results[2]).toMatch(
      /^Unknown tool "replyy"\. The tools you have are: .*; the nearest to "replyy": "reply"$/,
    );
  });
});

describe('errors that teach, for every place a name or number is given', () => {
  test('a value attached by pet name, and the folder a name is moved into, each name the nearest', async () => {
    const { results } = await runCalls([
      step('reply', request => ({
        messageNumber: latestMessageNumber(request),
        strings: ['here', ''],
        edgeNames: ['calc'],
        petNames: ['calculater'],
      })),
      step('send', () => ({
        recipient: 'bob',
        strings: ['the list', ''],
        edgeNames: ['list'],
        petNames: ['things/shoping-list'],
      })),
      step('names', () => ({ op: 'move', path: 'calculator', to: 'thingz/calc' })),
    ]);
    expect(results[0]).toMatch(
      /"calculater" \(there is no "calculater" in your directory; the nearest names there: "calculator"\)$/,
    );
    expect(results[1]).toMatch(
      /\(there is no "shoping-list" in "things"; the nearest names there: "shopping-list"\)$/,
    );
    expect(results[2]).toMatch(
      /^move: .*"thingz" \(there is no "thingz" in your directory; the nearest names there: "things"\)$/,
    );
  });

  test('an empty folder is said to be empty; with nothing near, five names and how many in all, or all when fewer', async () => {
    const { results } = await runCalls([
      step('names', () => ({ op: 'makeDirectory', path: 'empty' })),
      step('names', () => ({ op: 'lookup', path: 'empty/nothing' })),
      step('names', () => ({ op: 'lookup', path: 'qqqqqqq' })),
      step('names', () => ({ op: 'lookup', path: 'things/qqqqqqq' })),
    ]);
    expect(results[1]).toMatch(/there is no "nothing" in "empty", which is empty\)$/);
    const shown = /the names there: (.*) \((\d+) in all\)\)$/.exec(results[2]!);
    expect(shown?.[1]?.split(', ')).toHaveLength(5);
    expect(Number(shown?.[2])).toBeGreaterThan(5);
    expect(results[3]).toMatch(
      /there is no "qqqqqqq" in "things"; the names there: "shopping-list"\)$/,
    );
  });

  test('adopt from a message with no values says so; one with two names both edges', async () => {
    const bare = await runCalls([
      step('mail', request => ({
        op: 'adopt',
        messageNumber: latestMessageNumber(request),
        edgeName: 'x',
        petName: 'y',
      })),
    ]);
    expect(bare.results[0]).toMatch(/\(message #\d+ carries no values\)$/);
    const two = await runCalls(
      [
        step('mail', request => ({
          op: 'adopt',
          messageNumber: latestMessageNumber(request),
          edgeName: 'x',
          petName: 'y',
        })),
      ],
      { edgeNames: ['first', 'second'], petNames: ['calculator', 'bob'] },
    );
    expect(two.results[0]).toMatch(
      /\(message #\d+ carries 2 values, under the edge names "first", "second"\)$/,
    );
  });

  test('a message number when the inbox is empty says the inbox is empty', async () => {
    let asked = -1;
    const run = await start({
      steps: [
        request => {
          asked = latestMessageNumber(request);
          return callTool('mail', { op: 'dismiss', messageNumber: asked });
        },
        () => callTool('reply', { messageNumber: 999, strings: ['hello?'] }),
        () => callTool('send', { recipient: 'HOST', strings: ['done'] }),
      ],
    });
    await run.send('dismiss this, then answer 999');
    await run.reply('done');
    expect(asked).toBeGreaterThan(0);
    expect(lastResult(run.provider.requests[2]!)).toMatch(
      /\(there is no message #999: your inbox is empty\)$/,
    );
  });
});
