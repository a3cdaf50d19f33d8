/**
 * Tool calls written as text, through the whole agent: make() under
 * lockdown, the real OpenAI SDK, and the OpenAI wire double answering with
 * plain `content` (a server that parsed no tool calls). Each family's native
 * shape (test/support/text-call-samples.ts names its source) runs the call
 * and the reply reaches the sender; answers that only look like calls reach
 * the sender as the text they are, and run nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type NormalizedRequest,
  type ScriptedToolCall,
} from '../sim/model-server/index.js';
import { startAgent, type AgentRun } from './support/agent-harness.js';
import { PLAIN_ANSWERS, TEXT_CALL_SAMPLES } from './support/text-call-samples.js';

const noticeNumber = (request: NormalizedRequest): number => {
  const users = request.messages.filter(message => message.role === 'user');
  const found = [...(users.at(-1)?.text ?? '').matchAll(/#(\d+)/g)].pop();
  if (found === undefined) throw new Error('no notice');
  return Number(found[1]);
};

// One agent and one server for the file (starting them is most of the cost);
// each test sets the model's answer to the next message and waits for its turn to end.
let server: ModelServer;
let run: AgentRun;
let answer: (request: NormalizedRequest) => string = () => 'unset';
/** Structured calls the server returns beside the text (none unless a test says). */
let answerWithCalls: (request: NormalizedRequest) => ScriptedToolCall[] = () => [];
beforeAll(async () => {
  server = await startModelServer({
    protocol: 'openai',
    // The model answers a new message as the test says; after a tool result it is done.
    reply: request => {
      if (request.messages.at(-1)?.role !== 'user') return { text: 'Done.' };
      const toolCalls = answerWithCalls(request);
      return toolCalls.length > 0
        ? { text: answer(request), toolCalls }
        : { text: answer(request) };
    },
  });
  run = await startAgent({
    realProvider: true,
    env: {
      LAL_HOST: server.url,
      LAL_PROVIDER: 'openai',
      LAL_MODEL: 'test-model',
      LAL_AUTH_TOKEN: 'test-key',
      LAL_MAX_RETRIES: '1',
      // The model has the last word, so the recovered call goes back over the wire to be checked.
      LAL_STOP_AFTER_ANSWER: '0',
      LAL_MAX_CALLS_PER_REPLY: '2',
    },
  });
});
afterAll(async () => {
  await run.cancel().catch(() => {});
  await server.close();
});

/** Sends `text`, waits for the sender to hear `expected` and the turn to end; the events of that turn. */
const turn = async (text: string, expected: string) => {
  const from = run.events.length;
  const requestsFrom = server.requests.length;
  const ends = () => run.events.slice(from).filter(event => event.kind === 'turn-end').length;
  await run.send(text);
  await run.reply(expected);
  await expect.poll(ends).toBe(1);
  return { events: run.events.slice(from), requests: server.requests.slice(requestsFrom) };
};

describe('a call written as text in a family’s native format runs', () => {
  test.each(TEXT_CALL_SAMPLES.map(sample => [sample.family, sample] as const))(
    '%s',
    async (_family, sample) => {
      answer = request => sample.text(noticeNumber(request));
      const { events, requests } = await turn('ping', 'pong');
      expect(
        events
          .filter(event => event.kind === 'tool-call')
          .map(event => (event as { name: string }).name),
      ).toEqual(['reply']);
      // What the model wrote goes back to it as a structured call with its words, not as markup.
      expect(requests).toHaveLength(2);
      const sent = requests[1]!
        .normalized!.messages.filter(message => message.role === 'assistant')
        .at(-1)!;
      expect(sent.toolCalls!.map(call => call.name)).toEqual(['reply']);
      expect(sent.text).toBe(sample.words);
    },
  );
});

describe('what the server left in the text', () => {
  test('a call the server parsed and also left in the text runs once', async () => {
    let structured = true;
    answer = request =>
      `<tool_call>\n{"name": "reply", "arguments": {"messageNumber": ${noticeNumber(request)}, "strings": ["pong"]}}\n</tool_call>`;
    const original = answerWithCalls;
    answerWithCalls = request =>
      structured
        ? [
            {
              name: 'reply',
              arguments: { messageNumber: noticeNumber(request), strings: ['pong'] },
            },
          ]
        : [];
    try {
      const { events } = await turn('ping', 'pong');
      expect(events.filter(event => event.kind === 'tool-call')).toHaveLength(1);
    } finally {
      structured = false;
      answerWithCalls = original;
    }
  });

  test('gpt-oss harmony without a call: the person gets the final message, never the analysis', async () => {
    answer = () =>
      '<|channel|>analysis<|message|>private reasoning<|end|><|start|>assistant<|channel|>final<|message|>Hello there!<|return|>';
    const { requests } = await turn('hi', 'Hello there!');
    expect(JSON.stringify(requests.map(request => request.body))).not.toContain(
      'private reasoning',
    );
  });
});

describe('recovered calls pass the same checks as structured ones', () => {
  const toolResults = (request: { normalized?: NormalizedRequest }) =>
    (request.normalized?.messages ?? [])
      .filter(message => message.role === 'tool')
      .map(message => message.text);

  test('the per-reply cap (LAL_MAX_CALLS_PER_REPLY=2 here): a third call written as text is answered with an error, not run', async () => {
    const block = (name: string, args: object) =>
      `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
    answer = request =>
      [
        block('reply', { messageNumber: noticeNumber(request), strings: ['pong'] }),
        block('send', { recipient: 'HOST', strings: ['second'] }),
        block('send', { recipient: 'HOST', strings: ['third'] }),
      ].join('\n');
    const { events, requests } = await turn('ping', 'pong');
    await run.reply('second');
    expect(
      events
        .filter(event => event.kind === 'tool-call')
        .map(event => (event as { name: string }).name),
    ).toEqual(['reply', 'send']);
    expect(toolResults(requests[1]!).at(-1)).toMatch(/at most 2 tool calls/);
  });

  test('arguments cut off: the model is told they are not valid JSON, and the sender still hears back', async () => {
    answer = () => '[TOOL_CALLS]reply[ARGS]{"messageNumber": 1, "strings": ["po';
    const { events, requests } = await turn('ping', 'Done.');
    expect(
      events
        .filter(event => event.kind === 'tool-result')
        .map(event => (event as { ok: boolean }).ok),
    ).toEqual([false]);
    expect(toolResults(requests[1]!).at(-1)).toMatch(/not valid JSON/);
  });
});

describe('an answer that only looks like a call reaches the sender as text and runs nothing', () => {
  test.each(PLAIN_ANSWERS.map(plain => [plain.what, plain.text] as const))(
    '%s',
    async (_what, text) => {
      answer = () => text;
      const { events } = await turn('tell me', text);
      expect(events.filter(event => event.kind === 'tool-call')).toEqual([]);
    },
  );
});
