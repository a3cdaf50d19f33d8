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
import type { Conversation, Turn } from '../history/conversation.js';
import { buildRequest } from '../history/build-request.js';
import type { Observe, StopReason } from '../events/agent-events.js';
import { callModel } from './call-model.js';
import { callIdsIn, checkReplyCalls } from './check-reply-calls.js';
import { cleanReply } from './clean-reply.js';
import { makeRepeatGuard } from './repeat-guard.js';
import { pushMessage, runReplyCalls } from './run-reply-calls.js';
import type { StopCondition } from './stop-conditions.js';
import { runToolCall } from './run-tool-call.js';
import { throughHooks, type ToolCallHooks } from './tool-call-hooks.js';
import { describeError } from '../../providers/describe-error.js';
import {
  refuseTruncatedCalls,
  TRUNCATED_TEXT_NOTICE,
  truncatedRepliesError,
} from './truncated-reply.js';

export interface TurnSetup extends ToolCallHooks {
  /** What the turn is about, for the turn-start event. */
  title: string;
  provider: Provider;
  systemPrompt: string;
  conversation: Conversation;
  turn: Turn;
  /** The tools to offer; asked before every model call (adoptTool can add one). */
  tools: () => readonly ToolSchema[];
  /** Decodes a call once, for the repeat guard, the hooks and the run alike. */
  decodeCall: (call: ToolCall) => CallDecoding;
  /**
   * Runs one decoded call the hooks let through (src/builtin-tools/execute-tool.ts); the loop
   * bounds it in time, renders and caps what it returns. `offered`: the tools the request offered.
   */
  execute: (call: DecodedCall, offered: readonly string[]) => Promise<unknown>;
  /** Notices to show the model before its next call (settled proposals). */
  takeNotices: () => string[];
  /** Checked after each batch of tool calls; the first that holds ends the turn. */
  stopWhen: readonly StopCondition[];
  /**
   * Asked once when the model ends with neither text nor a tool call: a
   * nudge to show it (e.g. the sender is still waiting), or undefined to end.
   */
  whenSilent?: (turnSoFar: { toolCalls: number }) => string | undefined;
  /**
   * Asked before every model call: a reason to stop the turn now (an hourly
   * budget is spent), or undefined to go on.
   */
  beforeModelCall?: () => string | undefined;
  limits: AgentLimits;
  signal: AbortSignal;
  observe: Observe;
  makeId: () => string;
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

/** What a turn has used so far: read by its one turn-end. */
interface Tally {
  modelCalls: number;
  usage: Usage;
  /** Which models served the turn (more than one when a fallback took over). */
  models: string[];
}

type End = (stopReason: StopReason, finalText?: string, error?: string) => TurnOutcome;

export const runTurn = async (setup: TurnSetup): Promise<TurnOutcome> => {
  const { observe } = setup;
  observe({ kind: 'turn-start', title: setup.title });
  const tally: Tally = { modelCalls: 0, usage: { inputTokens: 0, outputTokens: 0 }, models: [] };
  const end = (
    stopReason: StopReason,
    finalText = '',
    error?: string,
    thrown?: string,
  ): TurnOutcome => {
    const { modelCalls, usage, models } = tally;
    observe({
      kind: 'turn-end',
      title: setup.title,
      stopReason,
      modelCalls,
      usage,
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
    };
  };
  try {
    return await runSteps(setup, tally, end);
  } catch (error) {
    const thrown = describeError(error);
    return end('error', '', `the agent failed: ${thrown}`, thrown);
  }
};
harden(runTurn);

/** The model calls and tool calls of a turn, until something ends it (`end`). */
const runSteps = async (setup: TurnSetup, tally: Tally, end: End): Promise<TurnOutcome> => {
  const { provider, conversation, turn, limits, signal, observe } = setup;
  const guard = makeRepeatGuard(limits);
  let nudged = false;
  let toolCallsMade = 0;
  // Replies cut by the output limit one after another (./truncated-reply.ts).
  let cutInARow = 0;
  for (;;) {
    if (signal.aborted) return end('cancelled');
    for (const notice of setup.takeNotices()) pushMessage(turn, { role: 'user', content: notice });
    if (tally.modelCalls >= limits.maxModelCalls) {
      const calls = `${limits.maxModelCalls} model call${limits.maxModelCalls === 1 ? '' : 's'}`;
      return end('max-model-calls', '', `the turn used its ${calls}`);
    }
    const stop = setup.beforeModelCall?.();
    if (stop !== undefined) return end('quota', '', stop);
    const tools = setup.tools();
    const request = buildRequest(setup.systemPrompt, conversation, tools, limits);
    tally.modelCalls += 1;
    observe({
      kind: 'model-call',
      call: tally.modelCalls,
      estimatedTokens: request.estimatedTokens,
      chars: request.chars,
    });
    const callNumber = tally.modelCalls;
    // eslint-disable-next-line no-await-in-loop -- each model call needs the results of the tool calls before it
    const outcome = await callModel(provider, request.messages, tools, signal, text =>
      observe({ kind: 'model-text', call: callNumber, text }),
    );
    if (!outcome.ok) {
      return outcome.aborted ? end('cancelled') : end('error', '', outcome.error);
    }
    if (!tally.models.includes(outcome.model)) tally.models.push(outcome.model);
    addUsage(tally.usage, outcome.usage);
    const cleaned = cleanReply(outcome.message, tools);
    const toolNames = tools.map(tool => tool.function.name);
    const checkedCalls = checkReplyCalls(cleaned.toolCalls ?? [], {
      idsInUse: callIdsIn(conversation.turns.flatMap(past => past.messages)),
      makeId: setup.makeId,
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
        reply.content.trim() === '' && !nudged
          ? setup.whenSilent?.({ toolCalls: toolCallsMade })
          : undefined;
      if (nudge === undefined) return end('done', reply.content);
      nudged = true;
      pushMessage(turn, { role: 'user', content: nudge });
      continue;
    }

    if (!outcome.truncated) toolCallsMade += calls.length;
    // eslint-disable-next-line no-await-in-loop -- the next model call needs this reply's tool results
    const stopped = await runReplyCalls(checked, {
      turn,
      guard,
      signal,
      decode: setup.decodeCall,
      run: call =>
        throughHooks(call, toolNames, setup, decoded =>
          runToolCall(decoded, each => setup.execute(each, toolNames), limits, signal, observe),
        ),
    });
    if (stopped !== undefined) {
      return stopped.stopped === 'cancelled'
        ? end('cancelled')
        : end('repeated-calls', '', stopped.error);
    }
    if (cutTooOften) return end('truncated', '', truncatedRepliesError(cutInARow));
    for (const condition of setup.stopWhen) {
      const reason = condition({ toolCalls: calls });
      if (reason !== undefined) return end(reason, reply.content);
    }
  }
};
