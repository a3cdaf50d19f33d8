/**
 * Each tool call's own stop (docs/behaviour.md 6.7), at its module: `runToolCall` gives the
 * `execute` it runs a signal that aborts, with why, when the turn is cancelled, when the call runs
 * past its time limit, or once it answered, and starts no call whose turn already stopped;
 * `executeTool` calls a FaeTool that can be stopped through `executeUntil`, with a promise that
 * settles at that stop, and any other through `execute(args)` alone; `canStop` reads which from
 * the methods a tool answers.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { runToolCall } from '../src/loop/run-tool-call.js';
import { executeTool } from '../src/builtin-tools/execute-tool.js';
import { decodeCall, type DecodedCall } from '../src/agent-tools/decode-call.js';
import { canStop, methodNamesOf, toolShapeOf } from '../src/agent-tools/tool-shape.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import type { BuiltinContext } from '../src/builtin-tools/dispatch-builtin-tool.js';

const decoding = decodeCall({ id: 'c1', name: 'probe', arguments: '{"n":1}' }, text => text);
if (!decoding.ok) throw new Error('the call did not decode');
const call: DecodedCall = decoding;
const limits = (toolTimeoutMs = 60_000) => ({ toolTimeoutMs, maxResultChars: 1_000 });

/** Runs one call whose execute keeps the stop it was given and answers when `answer` is called. */
const running = (signal: AbortSignal, toolTimeoutMs?: number) => {
  let stop: AbortSignal | undefined;
  let answer: (value: unknown) => void = () => {};
  let started: () => void = () => {};
  const began = new Promise<void>(resolve => {
    started = resolve;
  });
  const text = runToolCall(
    call,
    (_decoded, given) => {
      stop = given;
      started();
      return new Promise(resolve => {
        answer = resolve;
      });
    },
    limits(toolTimeoutMs),
    signal,
    () => {},
  );
  return { text, began, stop: () => stop, answer: (value: unknown) => answer(value) };
};

describe("a call's stop", () => {
  test('aborts, saying so, when the turn is cancelled; the call answers as cancelled', async () => {
    const turn = new AbortController();
    const run = running(turn.signal);
    await run.began;
    expect(run.stop()?.aborted).toBe(false);
    turn.abort();
    expect(await run.text).toMatch(/The tool call probe was cancelled/);
    expect(run.stop()?.reason).toBe('its turn was stopped');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  test('aborts when the call runs past its time limit', async () => {
    const run = running(new AbortController().signal, 50);
    await run.began;
    expect(await run.text).toMatch(/timed out after 50 ms/);
    expect(run.stop()?.reason).toBe("it ran past the agent's limit of 50 ms");
  });

  test('aborts once the call answered, and the answer stands', async () => {
    const turn = new AbortController();
    const run = running(turn.signal);
    await run.began;
    run.answer('fine');
    expect(await run.text).toBe('"fine"');
    expect(run.stop()?.reason).toBe('it answered');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  test('a call that fails is over as one that answered: its stop says so, its events say it failed', async () => {
    let stop: AbortSignal | undefined;
    const events: AgentEvent[] = [];
    const text = await runToolCall(
      call,
      (_decoded, given) => {
        stop = given;
        return Promise.reject(new Error('no such thing'));
      },
      limits(),
      new AbortController().signal,
      event => events.push(event),
    );
    expect(text).toBe('{"error":"no such thing"}');
    expect(stop?.reason).toBe('it answered');
    expect(events).toEqual([
      { kind: 'tool-call', id: 'c1', name: 'probe', summary: '{"n":1}' },
      {
        kind: 'tool-result',
        id: 'c1',
        name: 'probe',
        ok: false,
        preview: '{"error":"no such thing"}',
      },
    ]);
  });

  test('a call that could not be decoded runs nothing and says why', async () => {
    const events: AgentEvent[] = [];
    const bad = decodeCall({ id: 'c2', name: 'probe', arguments: '{not json' }, text => text);
    let ran = false;
    const text = await runToolCall(
      bad,
      () => {
        ran = true;
        return Promise.resolve('ran');
      },
      limits(),
      new AbortController().signal,
      event => events.push(event),
    );
    expect(ran).toBe(false);
    expect(text).toMatch(/^\{"error":".+"\}$/);
    expect(events).toEqual([
      { kind: 'tool-call', id: 'c2', name: 'probe', summary: '{not json' },
      { kind: 'tool-result', id: 'c2', name: 'probe', ok: false, preview: expect.any(String) },
    ]);
  });

  test('the events preview what was asked and answered: bigints marked, long text cut without a mark', async () => {
    const events: AgentEvent[] = [];
    const big: DecodedCall = { ...call, args: { n: 5n, text: 'a'.repeat(300) } };
    const text = await runToolCall(
      big,
      () => Promise.resolve('b'.repeat(300)),
      limits(),
      new AbortController().signal,
      event => events.push(event),
    );
    expect(text).toBe(`"${'b'.repeat(300)}"`);
    const [asked, answered] = events as [
      Extract<AgentEvent, { kind: 'tool-call' }>,
      Extract<AgentEvent, { kind: 'tool-result' }>,
    ];
    expect(asked.summary.startsWith('{"n":"+5","text":"aaa')).toBe(true);
    expect(asked.summary.length).toBeLessThanOrEqual(121);
    expect(answered.preview).toBe(`"${'b'.repeat(119)}`);
  });

  test('an undecodable call previews its raw arguments cut without a mark', async () => {
    const events: AgentEvent[] = [];
    const raw = `{${'x'.repeat(300)}`;
    const bad = decodeCall({ id: 'c6', name: 'probe', arguments: raw }, text => text);
    await runToolCall(
      bad,
      () => Promise.resolve('ran'),
      limits(),
      new AbortController().signal,
      event => events.push(event),
    );
    expect(events[0]).toEqual({
      kind: 'tool-call',
      id: 'c6',
      name: 'probe',
      summary: raw.slice(0, 120),
    });
  });

  test('a call whose turn already stopped is not started', async () => {
    const turn = new AbortController();
    turn.abort();
    let started = false;
    const text = await runToolCall(
      call,
      () => {
        started = true;
        return Promise.resolve('ran');
      },
      limits(),
      turn.signal,
      () => {},
    );
    expect(text).toMatch(/was cancelled/);
    // Past every microtask the start would have taken.
    await new Promise(resolve => setImmediate(resolve));
    expect(started).toBe(false);
  });
});

/** A context whose one tool, `probe`, records how it was called. */
const contextWith = (stoppable: boolean, calls: unknown[][]): BuiltinContext => {
  const tool = Far('Probe', {
    execute: (...given: unknown[]) => {
      calls.push(['execute', ...given]);
      return 'by execute';
    },
    executeUntil: (...given: unknown[]) => {
      calls.push(['executeUntil', ...given]);
      return 'by executeUntil';
    },
    schema: () => ({}),
    help: () => '',
  });
  const entry = { name: 'probe', petName: 'probe', schema: {}, tool, stoppable };
  return { tools: { find: (name: string) => (name === 'probe' ? entry : undefined) } } as never;
};

describe('executeTool', () => {
  test('calls a tool that cannot be stopped with execute(args) alone', async () => {
    const calls: unknown[][] = [];
    const stop = new AbortController();
    expect(await executeTool(call, contextWith(false, calls), ['probe'], stop.signal)).toBe(
      'by execute',
    );
    expect(calls).toEqual([['execute', { n: 1 }]]);
  });

  test('calls one that can be stopped through executeUntil, with a promise settled at the stop', async () => {
    const calls: unknown[][] = [];
    const stop = new AbortController();
    expect(await executeTool(call, contextWith(true, calls), ['probe'], stop.signal)).toBe(
      'by executeUntil',
    );
    expect(calls).toHaveLength(1);
    const [method, args, stopped] = calls[0]!;
    expect([method, args]).toEqual(['executeUntil', { n: 1 }]);
    let settled: unknown = 'not yet';
    void (stopped as Promise<unknown>).then(why => {
      settled = why;
    });
    await new Promise(resolve => setImmediate(resolve));
    expect(settled).toBe('not yet');
    stop.abort('its turn was stopped');
    expect(await stopped).toBe('its turn was stopped');
  });

  test('a stop already aborted, or aborted without words, still settles the promise', async () => {
    const calls: unknown[][] = [];
    const stop = new AbortController();
    stop.abort();
    await executeTool(call, contextWith(true, calls), ['probe'], stop.signal);
    expect(await (calls[0]![2] as Promise<unknown>)).toBe('it was stopped');
  });
});

describe('executeTool, a built-in', () => {
  test('runs through the dispatch with its validated values, never looked for among the FaeTools', async () => {
    const recall = decodeCall(
      { id: 'c4', name: 'recall', arguments: '{"query":"otters"}' },
      text => text,
    );
    if (!recall.ok) throw new Error('the call did not decode');
    const asked: string[] = [];
    const context = {
      powers: Far('Powers', {}),
      recall: (query: string) => {
        asked.push(query);
        return harden({ found: query });
      },
      tools: {
        find: () => {
          throw new Error('a built-in was looked for among the FaeTools');
        },
      },
    } as never;
    expect(await executeTool(recall, context, ['recall'], new AbortController().signal)).toEqual({
      found: 'otters',
    });
    expect(asked).toEqual(['otters']);
  });
});

describe('executeTool, a name no tool has', () => {
  test('is told the tools offered and the nearest', async () => {
    const odd = decodeCall({ id: 'c3', name: 'prob', arguments: '{}' }, text => text);
    if (!odd.ok) throw new Error('the call did not decode');
    await expect(
      executeTool(odd, contextWith(false, []), ['probe', 'other'], new AbortController().signal),
    ).rejects.toThrow(
      'Unknown tool "prob". The tools you have are: probe, other; the nearest to "prob": "probe"',
    );
  });

  test('with nothing near it, is told only the tools offered', async () => {
    const odd = decodeCall({ id: 'c5', name: 'zzzzzz', arguments: '{}' }, text => text);
    if (!odd.ok) throw new Error('the call did not decode');
    await expect(
      executeTool(odd, contextWith(false, []), ['probe', 'other'], new AbortController().signal),
    ).rejects.toThrow(/^Unknown tool "zzzzzz"\. The tools you have are: probe, other$/);
  });
});

describe('what an object is, from its methods', () => {
  test('a FaeTool first, then a source, else neither', () => {
    expect(toolShapeOf(['schema', 'execute', 'help'])).toBe('tool');
    expect(toolShapeOf(['schema', 'execute', 'help', 'listTools'])).toBe('tool');
    expect(toolShapeOf(['listTools'])).toBe('source');
    expect(toolShapeOf(['schema', 'execute'])).toBe('neither');
    expect(toolShapeOf(['execute', 'help'])).toBe('neither');
    expect(toolShapeOf(['schema', 'help'])).toBe('neither');
    expect(toolShapeOf([])).toBe('neither');
  });

  test('methodNamesOf asks the object; one that cannot say answers none', async () => {
    const bounded = <T>(_what: string, ask: () => unknown) => Promise.resolve(ask()) as Promise<T>;
    expect(
      await methodNamesOf(Far('Probe', { schema: () => ({}) }), bounded, 'its methods'),
    ).toContain('schema');
    const failing = <T>(what: string): Promise<T> => Promise.reject(new Error(`${what} failed`));
    expect(await methodNamesOf(Far('Probe', {}), failing, 'its methods')).toEqual([]);
  });
});

describe('canStop', () => {
  test('reads executeUntil among the methods a tool answers', () => {
    expect(canStop(['schema', 'execute', 'help', 'executeUntil'])).toBe(true);
    expect(canStop(['schema', 'execute', 'help'])).toBe(false);
    expect(canStop([])).toBe(false);
  });
});
