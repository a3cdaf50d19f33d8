/**
 * One helper at work (src/helpers/run-helper.ts, docs/behaviour.md 7.9), driven by a scripted
 * model through the loop it shares with the agent's turns: it ends with the result it hands
 * back (or its last plain words), runs only the tools it was granted through the policy's
 * seam, sees what arrived for it before each model call, and each of its bounds ends it as a
 * value saying which: model calls, tokens, the shared hourly budget, its time, the HOST's
 * cancel and the agent's stop.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config/config.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { helperPrompt, runHelper, type HelperSetup } from '../src/helpers/run-helper.js';
import { makeManualClock } from './support/manual-clock.js';
import { replying } from './support/scripted-provider.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import type {
  AssistantMessage,
  ChatMessage,
  ChatResult,
  Provider,
  ToolCall,
  ToolSchema,
} from '../providers/types.js';

const LIST: ToolSchema = {
  type: 'function',
  function: {
    name: 'countFiles',
    description: 'count',
    parameters: { type: 'object', properties: {} },
  },
};

const calling = (...toolCalls: ToolCall[]): AssistantMessage => ({
  role: 'assistant',
  content: '',
  toolCalls,
});
const said = (content: string): AssistantMessage => ({ role: 'assistant', content });
const handBack = (result: unknown, id = 'h'): ToolCall => ({
  id,
  name: 'handBack',
  arguments: JSON.stringify({ result }),
});
const list = (id = 'l'): ToolCall => ({ id, name: 'countFiles', arguments: '{}' });

/** The scripted model (test/support/scripted-provider.ts), each answer using `tokens`. */
const scripted = (replies: AssistantMessage[], seen: ChatMessage[][] = [], tokens = 10) => {
  const provider = replying(replies, seen);
  provider.usage = { inputTokens: tokens, outputTokens: 0 };
  return provider;
};

const setupWith = (provider: Provider, more: Partial<HelperSetup> = {}): HelperSetup => ({
  title: 'helper h1',
  task: 'count the files',
  provider,
  systemPrompt: 'you help',
  schemas: [LIST],
  decodeCall: call => decodeCall(call, text => text),
  guard: {},
  execute: async call => ({ ran: call.call.name }),
  takeNotices: () => [],
  budget: { modelCalls: 5, ms: 60_000, cut: [] },
  limits: DEFAULT_LIMITS,
  signal: new AbortController().signal,
  cancel: new AbortController().signal,
  clock: makeManualClock(),
  quotaStop: () => undefined,
  observe: () => {},
  onModelCall: () => {},
  ...more,
});

/** The text the helper's model was shown for its call `id`. */
const resultOf = (turn: { messages: ChatMessage[] }, id: string) =>
  turn.messages.find(message => message.role === 'tool' && message.toolCallId === id)?.content;

describe('how a helper ends its work', () => {
  test('handing back ends it with the result, after that one model call', async () => {
    let calls = 0;
    const { end, modelCalls } = await runHelper(
      setupWith(scripted([calling(handBack('3 files')), said('more')]), {
        onModelCall: () => {
          calls += 1;
        },
      }),
    );
    expect(end).toEqual({ status: 'done', result: '3 files' });
    expect(modelCalls).toBe(1);
    expect(calls).toBe(1);
  });

  test('a result that is not text is handed back as its JSON; none at all as empty text', async () => {
    const counted = await runHelper(setupWith(scripted([calling(handBack({ files: 3 }))])));
    expect(counted.end).toEqual({ status: 'done', result: '{"files":3}' });
    const empty = await runHelper(
      setupWith(scripted([calling({ id: 'h', name: 'handBack', arguments: '{}' })])),
    );
    expect(empty.end).toEqual({ status: 'done', result: '""' });
    const broken = await runHelper(
      setupWith(scripted([calling({ id: 'h', name: 'handBack', arguments: '{"result": ' })])),
    );
    expect(broken.end).toEqual({ status: 'done', result: '' });
  });

  test('its last plain words are its result; ending without any is a failure', async () => {
    const worded = await runHelper(setupWith(scripted([said('there are 3')])));
    expect(worded.end).toEqual({ status: 'done', result: 'there are 3' });
    const silent = await runHelper(setupWith(scripted([said('  ')])));
    expect(silent.end).toEqual({ status: 'failed', error: 'it ended without a result' });
  });

  test('handBack is offered with its one required text, and its call is answered as handed back', async () => {
    const provider = scripted([calling(handBack('3 files'))]);
    const { turn } = await runHelper(setupWith(provider));
    expect(provider.requests[0]?.tools.at(-1)).toStrictEqual({
      type: 'function',
      function: {
        name: 'handBack',
        description: 'Hand your result back to whoever gave you the task; your work ends.',
        parameters: {
          type: 'object',
          properties: { result: { type: 'string' } },
          required: ['result'],
        },
      },
    });
    expect(resultOf(turn, 'h')).toBe('{"handedBack":true}');
  });

  test('its prompt names the agent it helps, its one task, handBack and that it mails no one', () => {
    expect(helperPrompt('Lal')).toBe(
      `You are a helper of Lal, an assistant in an Endo daemon. You were made for one task, given below, with only the tools listed; you see nothing else of Lal's. Do the task, then call handBack once with the whole result. You cannot message anyone. A result {"error": "..."} means the call failed: fix the arguments, or hand back what went wrong.`,
    );
  });

  test('once it has ended, neither its time, the cancel nor the stop reaches the calls it made', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const inner = scripted([calling(list('a')), calling(handBack('ok'))]);
    const watched: Provider = {
      ...inner,
      chat: (messages, tools, options) => {
        signals.push(options?.signal);
        return inner.chat(messages, tools, options);
      },
    };
    const clock = makeManualClock();
    const cancel = new AbortController();
    const stop = new AbortController();
    const { end } = await runHelper(
      setupWith(watched, { clock, cancel: cancel.signal, signal: stop.signal }),
    );
    expect(end).toEqual({ status: 'done', result: 'ok' });
    expect(signals).toHaveLength(2);
    clock.advance(60_000);
    cancel.abort();
    stop.abort();
    expect(signals.map(signal => signal?.aborted)).toEqual([false, false]);
  });

  test('its own conversation starts with its task alone, under its own prompt', async () => {
    const seen: ChatMessage[][] = [];
    const { turn } = await runHelper(setupWith(scripted([said('ok')], seen)));
    expect(seen[0]?.[0]).toEqual({ role: 'system', content: 'you help' });
    expect(seen[0]?.at(-1)?.content).toMatch(/count the files$/);
    expect(turn.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'ok' });
  });
});

describe('what a helper may call', () => {
  test('a granted tool runs through the seam; a tool it was not given is refused, naming what it has', async () => {
    const ran: string[] = [];
    const seam: string[] = [];
    const { end, turn } = await runHelper(
      setupWith(
        scripted([
          calling(list('l1'), { id: 'r1', name: 'reply', arguments: '{"messageNumber":1}' }),
          calling(handBack('ok')),
        ]),
        {
          guard: {
            beforeToolCall: async call => {
              seam.push(call.call.name);
              return undefined;
            },
            afterToolCall: call => seam.push(`after ${call.call.name}`),
          },
          execute: async call => {
            ran.push(call.call.name);
            return 'listed';
          },
        },
      ),
    );
    expect(end).toEqual({ status: 'done', result: 'ok' });
    expect(ran).toEqual(['countFiles']);
    expect(seam).toEqual(['countFiles', 'after countFiles']);
    expect(resultOf(turn, 'l1')).toBe('"listed"');
    expect(JSON.parse(resultOf(turn, 'r1') ?? '{}')).toEqual({
      error: `"reply" is not one of this helper's tools: countFiles, handBack`,
    });
  });

  test("a group's op runs only when the granted group offers that op", async () => {
    const names: ToolSchema = {
      type: 'function',
      function: {
        name: 'names',
        description: 'names',
        parameters: { type: 'object', properties: { op: { type: 'string', enum: ['list'] } } },
      },
    };
    const ran: string[] = [];
    const { turn } = await runHelper(
      setupWith(
        scripted([
          calling(
            { id: 'a', name: 'names', arguments: '{"op":"list"}' },
            { id: 'b', name: 'names', arguments: '{"op":"remove","path":"x"}' },
            { id: 'c', name: 'names', arguments: '{}' },
          ),
          calling(handBack('ok')),
        ]),
        {
          schemas: [names],
          execute: async call => {
            ran.push(call.names.join('/'));
            return 'ran';
          },
        },
      ),
    );
    expect(ran).toEqual(['list/names']);
    expect(resultOf(turn, 'b')).toMatch(/not one of this helper's tools/);
    expect(resultOf(turn, 'c')).toMatch(/error/);
  });

  test('a group it was not granted, or one granted without ops, runs none of its ops', async () => {
    const opless = (properties?: Record<string, never>): ToolSchema => ({
      type: 'function',
      function: {
        name: 'names',
        description: 'names',
        parameters: properties === undefined ? { type: 'object' } : { type: 'object', properties },
      },
    });
    for (const schemas of [[LIST], [opless()], [opless({})]]) {
      const ran: string[] = [];
      const { turn } = await runHelper(
        setupWith(
          scripted([
            calling({ id: 'a', name: 'names', arguments: '{"op":"list"}' }),
            calling(handBack('ok')),
          ]),
          {
            schemas,
            execute: async call => {
              ran.push(call.names.join('/'));
              return 'ran';
            },
          },
        ),
      );
      expect(ran).toEqual([]);
      expect(JSON.parse(resultOf(turn, 'a') ?? '{}')).toEqual({
        error: `"names" is not one of this helper's tools: ${[...schemas.map(each => each.function.name), 'handBack'].join(', ')}`,
      });
    }
  });

  test('what the seam answers instead is what its model sees', async () => {
    const { turn } = await runHelper(
      setupWith(scripted([calling(list('l1')), calling(handBack('ok'))]), {
        guard: { beforeToolCall: async () => '{"status":"pending"}' },
      }),
    );
    expect(resultOf(turn, 'l1')).toBe('{"status":"pending"}');
  });

  test('what arrived for it is shown before its next model call', async () => {
    const seen: ChatMessage[][] = [];
    const inbox = ['an outcome of its own helper'];
    await runHelper(
      setupWith(scripted([calling(list()), calling(handBack('ok'))], seen), {
        takeNotices: () => inbox.splice(0, inbox.length),
      }),
    );
    expect(seen[0]?.at(-1)?.content).toMatch(/an outcome of its own helper$/);
    expect(JSON.stringify(seen[1])).toContain('an outcome of its own helper');
  });
});

describe("a helper's bounds", () => {
  test('its model calls: it ends as over budget, saying how many', async () => {
    const one = await runHelper(
      setupWith(scripted([calling(list('a')), calling(list('b'))]), {
        budget: { modelCalls: 1, ms: 60_000, cut: [] },
      }),
    );
    expect(one.end).toEqual({ status: 'budget', why: 'it used its 1 model call' });
    const two = await runHelper(
      setupWith(scripted([calling(list('a')), calling(list('b')), calling(list('c'))]), {
        budget: { modelCalls: 2, ms: 60_000, cut: [] },
      }),
    );
    expect(two.end).toEqual({ status: 'budget', why: 'it used its 2 model calls' });
    expect(two.modelCalls).toBe(2);
  });

  test('its tokens: counted from each answer, it stops before the call that would pass them', async () => {
    const { end, modelCalls } = await runHelper(
      setupWith(scripted([calling(list('a')), calling(list('b')), calling(list('c'))], [], 60), {
        budget: { modelCalls: 5, tokens: 100, ms: 60_000, cut: [] },
      }),
    );
    expect(end).toEqual({ status: 'budget', why: 'it used its 100 tokens (120)' });
    expect(modelCalls).toBe(2);
    const under = await runHelper(
      setupWith(scripted([calling(list('a')), calling(handBack('ok'))], [], 50), {
        budget: { modelCalls: 5, tokens: 100, ms: 60_000, cut: [] },
      }),
    );
    expect(under.end).toEqual({ status: 'done', result: 'ok' });
  });

  test('its tokens: input and output both count, and reaching the budget exactly stops it', async () => {
    const both = scripted([calling(list('a')), calling(list('b')), calling(list('c'))]);
    both.usage = { inputTokens: 30, outputTokens: 20 };
    const exact = await runHelper(
      setupWith(both, { budget: { modelCalls: 5, tokens: 100, ms: 60_000, cut: [] } }),
    );
    expect(exact.end).toEqual({ status: 'budget', why: 'it used its 100 tokens (100)' });
    expect(exact.modelCalls).toBe(2);
  });

  test('an answer that reports no usage counts no tokens', async () => {
    const inner = scripted([calling(list('a')), calling(handBack('ok'))]);
    const unmetered: Provider = {
      ...inner,
      chat: async (messages, tools, options): Promise<ChatResult> => {
        const { usage: _usage, ...rest } = await inner.chat(messages, tools, options);
        return rest;
      },
    };
    const { end } = await runHelper(
      setupWith(unmetered, { budget: { modelCalls: 5, tokens: 1, ms: 60_000, cut: [] } }),
    );
    expect(end).toEqual({ status: 'done', result: 'ok' });
  });

  test('the hourly budget it shares with its parent stops it, saying why', async () => {
    let spent = false;
    const { end } = await runHelper(
      setupWith(scripted([calling(list('a')), calling(handBack('ok'))]), {
        execute: async () => {
          spent = true;
          return 'ran';
        },
        quotaStop: () => (spent ? 'the hour is spent' : undefined),
      }),
    );
    expect(end).toEqual({ status: 'quota', why: 'the hour is spent' });
  });

  test("its time, the HOST's cancel and the agent's stop each end it, told apart", async () => {
    /** A model that waits for the abort it is given, as a slow call would. */
    const waiting: Provider = {
      kind: 'test',
      model: 'm',
      chat: (_messages, _tools, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    };
    const clock = makeManualClock();
    let settled = false;
    const running = runHelper(setupWith(waiting, { clock }));
    void running.then(() => {
      settled = true;
    });
    clock.advance(59_999);
    await Promise.resolve();
    expect(settled).toBe(false);
    clock.advance(1);
    expect((await running).end).toEqual({ status: 'timeout' });

    const cancel = new AbortController();
    const cancelled = runHelper(setupWith(waiting, { cancel: cancel.signal }));
    cancel.abort();
    expect((await cancelled).end).toEqual({ status: 'cancelled' });

    const stop = new AbortController();
    const stopped = runHelper(setupWith(waiting, { signal: stop.signal }));
    stop.abort();
    expect((await stopped).end).toEqual({ status: 'stopped' });
  });

  test('a model failure ends it as failed with what went wrong', async () => {
    const failing: Provider = {
      kind: 'test',
      model: 'm',
      chat: async () => {
        throw new Error('the server is down');
      },
    };
    const events: AgentEvent[] = [];
    const { end } = await runHelper(setupWith(failing, { observe: event => events.push(event) }));
    expect(end.status).toBe('failed');
    expect(end.status === 'failed' && end.error).toMatch(/the server is down/);
    expect(events.at(-1)).toMatchObject({ kind: 'turn-end', title: 'helper h1' });
  });
});
