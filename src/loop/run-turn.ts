/**
 * One turn of the ReAct loop: call the model with the conversation and the
 * tools; while the reply asks for tools, run them and feed the results
 * back. Bounds end a turn early: a cap on model calls, the repeated-call
 * guard, replies cut by the output limit again and again, cancellation.
 * Provider failures come back as a stop reason with a message, and anything
 * that throws part-way ends the turn the same way (`thrown`), never as a
 * rejection: every turn emits one turn-start and one turn-end. Each tool call
 * is the loop's own step: the `beforeToolCall` hook judges it, the loop runs it
 * (`execute`, under the time limit), and `afterToolCall` is told (./tool-call-hooks.ts).
 */
import type { Provider, ToolCall, ToolSchema, Usage } from '../../providers/types.js';
import type { AgentLimits } from '../config/config.js';
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';
import { markOf, type CallMark } from '../agent-tools/call-marks.js';
import type { Conversation, Turn } from '../history/conversation.js';
import { buildRequest } from '../history/build-request.js';
import { CHARS_PER_TOKEN } from '../history/estimate-tokens.js';
import type { Observe, StopReason } from '../events/agent-events.js';
import { callModel } from './call-model.js';
import { callIdsIn, checkReplyCalls } from './check-reply-calls.js';
import { cleanReply } from './clean-reply.js';
import { makeRepeatGuard } from './repeat-guard.js';
import { pushMessage, runReplyCalls } from './run-reply-calls.js';
import { runToolCall } from './run-tool-call.js';
import { throughHooks, type ToolCallHooks } from './tool-call-hooks.js';
import { describeError } from '../../providers/describe-error.js';
import {
  refuseTruncatedCalls,
  TRUNCATED_TEXT_NOTICE,
  truncatedRepliesError,
} from './truncated-reply.js';

/** The turn's tools as the loop is given them (as pi-mono's loop is given its context's tools). */
export interface TurnTools {
  /** The tools to offer; asked before every model call (adoptTool can add one). */
  offer: () => readonly ToolSchema[];
  /** Decodes a call once, for the repeat guard, the hooks and the run alike. */
  decode: (call: ToolCall) => CallDecoding;
  /**
   * Runs one decoded call the hooks let through (src/builtin-tools/execute-tool.ts); the loop
   * bounds it in time, renders and caps what it returns. `offered`: the tools the request offered;
   * `stop`: aborts when the loop no longer waits for the call (./run-tool-call.ts).
   */
  execute: (call: DecodedCall, offered: readonly string[], stop: AbortSignal) => Promise<unknown>;
}

/** Before each model call (pi-mono's steering): words to show the model first, and why to stop now, if it must. */
export interface Steering {
  /** Shown to the model as the user's, in order (this message's outcomes that settled meanwhile). */
  show?: readonly string[];
  /** Why the turn stops before this call (an hourly budget is spent). */
  stop?: string;
}

/** The loop's hooks: the two around each tool call (./tool-call-hooks.ts) and the steering before each model call. */
interface TurnHooks extends ToolCallHooks {
  beforeModelCall?: () => Steering;
}

/** What ends a turn besides the model's last word and the bounds: its message answered, or a call of the tool that ends it. */
type TurnEnds = { answered: bigint } | { called: string };

export interface TurnSetup extends TurnHooks {
  /** What the turn is about, for the turn-start event. */
  title: string;
  provider: Provider;
  systemPrompt: string;
  conversation: Conversation;
  turn: Turn;
  tools: TurnTools;
  /** Checked after each batch of tool calls: the turn ends `answered` when it holds. */
  endWhen?: TurnEnds;
  /**
   * Shown once when the model ends with neither text nor a tool call before it called any
   * tool (its sender is still waiting); when absent, such a turn ends at once.
   */
  silenceNudge?: string;
  limits: AgentLimits;
  signal: AbortSignal;
  /** Where the turn's events go, in order: the loop's one outlet (observers never steer it). */
  observe: Observe;
}

export interface TurnOutcome {
  stopReason: StopReason;
  error?: string;
  /** The model's last words, when it ended the turn with text. */
  finalText: string;
  modelCalls: number;
  usage: Usage;
  /** Set when something threw part-way (the agent failed, not the model): what it said. */
  thrown?: string;
  /** Set when the model server could not be reached or failed (./call-model.ts): sending again later may help, rephrasing not. */
  serverFailed?: true;
  /** What the calls that ran did that the turn's server keeps track of, in order (src/agent-tools/call-marks.ts). */
  marks: readonly CallMark[];
}

/** Adds what one model call used to the turn's usage. */
const addUsage = (usage: Usage, used: Usage | undefined) => {
  if (used === undefined) return;
  usage.inputTokens += used.inputTokens;
  usage.outputTokens += used.outputTokens;
  if (used.cachedInputTokens !== undefined) {
    usage.cachedInputTokens = (usage.cachedInputTokens ?? 0) + used.cachedInputTokens;
  }
};

/** What a turn has used and done so far: read by its one turn-end. */
interface Tally {
  modelCalls: number;
  usage: Usage;
  /** Set when `usage` holds an estimate: a call stopped part-way, which the server never counted. */
  estimated?: true;
  /** Which models served the turn (more than one when a fallback took over). */
  models: string[];
  marks: CallMark[];
}

// Call ids the loop makes for calls that came without one (or with one in use), unique in this worker.
let callIds = 0;
const makeCallId = () => `call_${Date.now().toString(36)}_${(callIds += 1)}`;

/** Whether the calls of one batch end the turn as `endWhen` says. */
const endsTurn = (
  endWhen: TurnEnds | undefined,
  batch: { marks: readonly CallMark[]; stepped: readonly string[] },
): boolean => {
  if (endWhen === undefined) return false;
  if ('called' in endWhen) return batch.stepped.includes(endWhen.called);
  return batch.marks.some(mark => mark.kind === 'answered' && mark.number === endWhen.answered);
};

type End = (
  stopReason: StopReason,
  finalText?: string,
  error?: string,
  thrown?: string,
  serverFailed?: true,
) => TurnOutcome;

export const runTurn = async (setup: TurnSetup): Promise<TurnOutcome> => {
  const { observe } = setup;
  observe({ kind: 'turn-start', title: setup.title });
  const tally: Tally = {
    modelCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    models: [],
    marks: [],
  };
  let ended = false;
  const end = (
    stopReason: StopReason,
    finalText = '',
    error?: string,
    thrown?: string,
    serverFailed?: true,
  ): TurnOutcome => {
    const { modelCalls, usage, models, estimated } = tally;
    ended = true;
    observe({
      kind: 'turn-end',
      title: setup.title,
      stopReason,
      modelCalls,
      usage,
      ...(estimated === undefined ? {} : { usageEstimated: estimated }),
      ...(error === undefined ? {} : { error }),
      ...(models.length === 0 ? {} : { models }),
    });
    return {
      stopReason,
      finalText,
      modelCalls,
      usage,
      ...(error === undefined ? {} : { error }),
      ...(thrown === undefined ? {} : { thrown }),
      ...(serverFailed === undefined ? {} : { serverFailed }),
      marks: harden([...tally.marks]),
    };
  };
  // A call the HOST approves after the turn ran through the same step: it marks no ended turn.
  const mark = (made: CallMark) => {
    if (!ended) tally.marks.push(made);
  };
  try {
    return await runSteps(setup, tally, end, mark);
  } catch (error) {
    const thrown = describeError(error);
    return end('error', '', `the agent failed: ${thrown}`, thrown);
  }
};
harden(runTurn);

/** The model calls and tool calls of a turn, until something ends it (`end`). */
const runSteps = async (
  setup: TurnSetup,
  tally: Tally,
  end: End,
  mark: (made: CallMark) => void,
): Promise<TurnOutcome> => {
  const { provider, conversation, turn, limits, signal, observe, tools: turnTools } = setup;
  const guard = makeRepeatGuard(limits);
  let nudged = false;
  let toolCallsMade = 0;
  // Replies cut by the output limit one after another (./truncated-reply.ts).
  let cutInARow = 0;
  for (;;) {
    if (signal.aborted) return end('cancelled');
    const steering = setup.beforeModelCall?.() ?? {};
    for (const words of steering.show ?? []) pushMessage(turn, { role: 'user', content: words });
    if (tally.modelCalls >= limits.maxModelCalls) {
      const calls = `${limits.maxModelCalls} model call${limits.maxModelCalls === 1 ? '' : 's'}`;
      return end('max-model-calls', '', `the turn used its ${calls}`);
    }
    if (steering.stop !== undefined) return end('quota', '', steering.stop);
    const tools = turnTools.offer();
    const request = buildRequest(setup.systemPrompt, conversation, tools, limits);
    tally.modelCalls += 1;
    observe({
      kind: 'model-call',
      call: tally.modelCalls,
      estimatedTokens: request.estimatedTokens,
      chars: request.chars,
    });
    const callNumber = tally.modelCalls;
    let streamed = '';
    // eslint-disable-next-line no-await-in-loop -- each model call needs the results of the tool calls before it
    const outcome = await callModel(provider, request.messages, tools, signal, text => {
      streamed = text;
      observe({ kind: 'model-text', call: callNumber, text });
    });
    if (!outcome.ok && outcome.aborted) {
      // Stopped part-way: the server read the request and wrote what streamed, and never said so.
      addUsage(tally.usage, {
        inputTokens: request.estimatedTokens,
        outputTokens: Math.ceil(streamed.length / CHARS_PER_TOKEN),
      });
      tally.estimated = true;
      return end('cancelled');
    }
    if (!outcome.ok) return end('error', '', outcome.error, undefined, outcome.serverFailed);
    if (!tally.models.includes(outcome.model)) tally.models.push(outcome.model);
    addUsage(tally.usage, outcome.usage);
    const cleaned = cleanReply(outcome.message, tools);
    const toolNames = tools.map(tool => tool.function.name);
    const checkedCalls = checkReplyCalls(cleaned.toolCalls ?? [], {
      idsInUse: callIdsIn(conversation.turns.flatMap(past => past.messages)),
      makeId: makeCallId,
      maxCalls: limits.maxCallsPerReply,
      toolNames,
    });
    // A cut reply never acts: each of its calls is answered with why instead.
    cutInARow = outcome.truncated ? cutInARow + 1 : 0;
    const checked = outcome.truncated ? refuseTruncatedCalls(checkedCalls) : checkedCalls;
    const cutTooOften = cutInARow >= limits.maxTruncatedReplies;
    const calls = checked.map(entry => entry.call);
    const reply = calls.length > 0 ? { ...cleaned, toolCalls: calls } : cleaned;
    observe({
      kind: 'model-reply',
      call: tally.modelCalls,
      usage: outcome.usage,
      toolCalls: calls.length,
    });
    pushMessage(turn, reply);
    if (calls.length === 0 && outcome.truncated) {
      if (cutTooOften) return end('truncated', '', truncatedRepliesError(cutInARow));
      pushMessage(turn, { role: 'user', content: TRUNCATED_TEXT_NOTICE });
      continue;
    }
    if (calls.length === 0) {
      const nudge =
        reply.content.trim() === '' && !nudged && toolCallsMade === 0
          ? setup.silenceNudge
          : undefined;
      if (nudge === undefined) return end('done', reply.content);
      nudged = true;
      pushMessage(turn, { role: 'user', content: nudge });
      continue;
    }

    if (!outcome.truncated) toolCallsMade += calls.length;
    const batch: { marks: CallMark[]; stepped: string[] } = { marks: [], stepped: [] };
    const execute = async (decoded: DecodedCall, stop: AbortSignal) => {
      const result = await turnTools.execute(decoded, toolNames, stop);
      // Reached only when the call ran without an error.
      const made = markOf(decoded);
      if (made !== undefined) {
        batch.marks.push(made);
        mark(made);
      }
      return result;
    };
    // eslint-disable-next-line no-await-in-loop -- the next model call needs this reply's tool results
    const stopped = await runReplyCalls(checked, {
      turn,
      guard,
      signal,
      decode: turnTools.decode,
      run: call => {
        batch.stepped.push(call.call.name);
        return throughHooks(
          call,
          toolNames,
          setup,
          decoded => runToolCall(decoded, execute, limits, signal, observe),
          asked => observe({ kind: 'tool-asked', id: asked.call.id, name: asked.call.name }),
        );
      },
    });
    if (stopped !== undefined) {
      return stopped.stopped === 'cancelled'
        ? end('cancelled')
        : end('repeated-calls', '', stopped.error);
    }
    if (cutTooOften) return end('truncated', '', truncatedRepliesError(cutInARow));
    if (endsTurn(setup.endWhen, batch)) return end('answered', reply.content);
  }
};
