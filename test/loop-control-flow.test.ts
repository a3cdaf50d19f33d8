/**
 * The loop owns its control flow (docs/architecture.md, `src/loop/`): what serving needs from
 * a turn comes back in its outcome — the messages its calls answered, sent and dismissed, read
 * from each op's record (src/agent-tools/call-marks.ts) — and the turn ends once its message
 * is answered because the loop saw the answer, not because serving's closure told it.
 * Before each model call the one steering hook shows outcomes or stops the turn; a silent
 * model is nudged once with the words it was given.
 */
import { describe, expect, test } from 'vitest';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { runTurn, type TurnSetup } from '../src/loop/run-turn.js';
import type { AssistantMessage, ChatMessage, Provider, ToolCall } from '../providers/types.js';
import { replying } from './support/scripted-provider.js';
import { turnSetup } from './support/turn-setup.js';

const calling = (...toolCalls: ToolCall[]): AssistantMessage => ({
  role: 'assistant',
  content: '',
  toolCalls,
});

const replyTo = (number: number, id = `r${number}`): ToolCall => ({
  id,
  name: 'reply',
  arguments: JSON.stringify({ messageNumber: number, strings: ['hi'] }),
});

const setupWith = (provider: Provider, more: Partial<TurnSetup> = {}): TurnSetup =>
  turnSetup(provider, {
    tools: {
      offer: () => BUILTIN_SCHEMAS,
      decode: call => decodeCall(call, text => text),
      execute: async call => ({ ran: call.call.name }),
    },
    ...more,
  });

describe('the outcome says what the turn did', () => {
  test('a reply, a send, a resolve and a dismiss that ran are marked in order', async () => {
    const outcome = await runTurn(
      setupWith(
        replying([
          calling(
            replyTo(7),
            { id: 's', name: 'send', arguments: '{"recipient":"bob","strings":["x"]}' },
            {
              id: 'v',
              name: 'mail',
              arguments: '{"op":"resolve","messageNumber":"+8","path":"a"}',
            },
            { id: 'd', name: 'dismiss', arguments: '{"messageNumber":9}' },
            { id: 'l', name: 'names', arguments: '{"op":"list"}' },
          ),
        ]),
      ),
    );
    expect(outcome.stopReason).toBe('done');
    expect(outcome.marks).toEqual([
      { kind: 'answered', number: 7n },
      { kind: 'sent' },
      { kind: 'answered', number: 8n },
      { kind: 'dismissed', number: 9n },
    ]);
  });

  test('a call that failed, or that the hook answered instead, marks nothing', async () => {
    const outcome = await runTurn(
      setupWith(replying([calling(replyTo(7)), calling(replyTo(8))]), {
        tools: {
          offer: () => BUILTIN_SCHEMAS,
          decode: call => decodeCall(call, text => text),
          execute: async () => {
            throw new Error('the daemon said no');
          },
        },
      }),
    );
    expect(outcome.marks).toEqual([]);
    const held = await runTurn(
      setupWith(replying([calling(replyTo(7))]), {
        beforeToolCall: async () => '{"status":"pending"}',
      }),
    );
    expect(held.marks).toEqual([]);
  });
});

describe('what ends a turn', () => {
  test('answering its message ends it after that batch, with the reply text; another message does not', async () => {
    const seen: ChatMessage[][] = [];
    const outcome = await runTurn(
      setupWith(replying([calling(replyTo(8)), calling(replyTo(7))], seen), {
        endWhen: { answered: 7n },
      }),
    );
    expect(outcome.stopReason).toBe('answered');
    expect(outcome.modelCalls).toBe(2);
    expect(seen).toHaveLength(2);
  });

  test('an answer that failed does not end it', async () => {
    let runs = 0;
    const outcome = await runTurn(
      setupWith(replying([calling(replyTo(7)), calling(replyTo(7, 'again'))]), {
        endWhen: { answered: 7n },
        tools: {
          offer: () => BUILTIN_SCHEMAS,
          decode: call => decodeCall(call, text => text),
          execute: async () => {
            runs += 1;
            if (runs === 1) throw new Error('busy');
            return 'ok';
          },
        },
      }),
    );
    expect(outcome.stopReason).toBe('answered');
    expect(outcome.modelCalls).toBe(2);
  });

  test('without endWhen the model is called again after answering', async () => {
    const outcome = await runTurn(setupWith(replying([calling(replyTo(7))])));
    expect(outcome.stopReason).toBe('done');
    expect(outcome.finalText).toBe('done');
    expect(outcome.modelCalls).toBe(2);
  });

  test('a call of the tool that ends the turn ends it, whatever the hook answered', async () => {
    const handBack: ToolCall = { id: 'h', name: 'reply', arguments: '{"messageNumber":1}' };
    const outcome = await runTurn(
      setupWith(replying([calling(handBack)]), {
        endWhen: { called: 'reply' },
        beforeToolCall: async () => '{"handedBack":true}',
      }),
    );
    expect(outcome.stopReason).toBe('answered');
    expect(outcome.modelCalls).toBe(1);
  });
});

describe('before each model call, and after silence', () => {
  test('the steering hook shows its words before the call and stops the turn when it says why', async () => {
    const seen: ChatMessage[][] = [];
    let asked = 0;
    const outcome = await runTurn(
      setupWith(replying([calling(replyTo(3))], seen), {
        beforeModelCall: () => {
          asked += 1;
          return asked === 1 ? { show: ['an outcome settled'] } : { stop: 'the budget is spent' };
        },
      }),
    );
    expect(outcome.stopReason).toBe('quota');
    expect(outcome.error).toBe('the budget is spent');
    expect(seen).toHaveLength(1);
    // Shown in the request (the repair joins it to the opening user message).
    expect(seen[0]?.at(-1)?.content).toMatch(/an outcome settled$/);
  });

  test('a silent model is shown the nudge once, and only before any tool call', async () => {
    const silent: AssistantMessage = { role: 'assistant', content: '' };
    const seen: ChatMessage[][] = [];
    const nudged = await runTurn(
      setupWith(replying([silent, silent], seen), { silenceNudge: 'bob is waiting' }),
    );
    expect(nudged.stopReason).toBe('done');
    expect(nudged.modelCalls).toBe(2);
    expect(seen[1]?.at(-1)?.content).toMatch(/bob is waiting$/);
    const quiet = await runTurn(setupWith(replying([silent])));
    expect(quiet.modelCalls).toBe(1);
    const afterCalls = await runTurn(
      setupWith(replying([calling(replyTo(2)), silent]), { silenceNudge: 'bob is waiting' }),
    );
    expect(afterCalls.modelCalls).toBe(2);
  });
});
