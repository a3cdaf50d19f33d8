/**
 * One helper at work (behaviour 7.9): its own ReAct loop (src/loop/run-turn.ts)
 * over a conversation of its own, which starts with its task and nothing of
 * its parent's; offered exactly the tools it was granted and `handBack`,
 * which ends its work with the result (so does a last plain-text answer).
 * Its budget bounds it: model calls (the loop's own cap), tokens (counted
 * from each answer), time (the clock aborts it), and the hourly budget it
 * shares with its parent, checked before each model call. How it ended is
 * a value, never a throw.
 */
import type { Provider, ToolCall, ToolSchema } from '../../providers/types.js';
import type { AgentLimits } from '../config/config.js';
import type { CallDecoding } from '../agent-tools/decode-call.js';
import { renderError } from '../encoding/render-for-model.js';
import { emptyConversation, startTurn, type Turn } from '../history/conversation.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Observe } from '../events/agent-events.js';
import { runTurn, type TurnTools } from '../loop/run-turn.js';
import type { ToolCallHooks } from '../loop/tool-call-hooks.js';
import { meteredProvider } from '../usage/metered-provider.js';
import { isGroup } from '../agent-tools/tool-groups.js';
import type { HelperBudget } from './helper-budget.js';

const HAND_BACK = 'handBack';

const HAND_BACK_SCHEMA: ToolSchema = harden({
  type: 'function',
  function: {
    name: HAND_BACK,
    description: 'Hand your result back to whoever gave you the task; your work ends.',
    parameters: {
      type: 'object',
      properties: { result: { type: 'string' } },
      required: ['result'],
    },
  },
});

export const helperPrompt = (agentName: string): string =>
  `You are a helper of ${agentName}, an assistant in an Endo daemon. You were made for one task, given below, with only the tools listed; you see nothing else of ${agentName}'s. Do the task, then call ${HAND_BACK} once with the whole result. You cannot message anyone. A result {"error": "..."} means the call failed: fix the arguments, or hand back what went wrong.`;
harden(helperPrompt);

export type HelperEnd =
  | { status: 'done'; result: string }
  | { status: 'failed'; error: string }
  | { status: 'timeout' }
  | { status: 'cancelled' }
  | { status: 'quota'; why: string }
  | { status: 'budget'; why: string }
  | { status: 'stopped' };

export interface HelperSetup {
  title: string;
  task: string;
  provider: Provider;
  systemPrompt: string;
  /** The granted tools (./grant.ts); `handBack` is added here. */
  schemas: readonly ToolSchema[];
  decodeCall: (call: ToolCall) => CallDecoding;
  /** The policy's seam, the loop's hooks around each granted call (src/policy/guard-tool-call.ts). */
  guard: ToolCallHooks;
  /** Runs one call the seam let through. */
  execute: TurnTools['execute'];
  /** What arrived for it meanwhile (its own helpers' results). */
  takeNotices: () => string[];
  budget: HelperBudget;
  limits: AgentLimits;
  /** The agent's: its stop stops every helper. */
  signal: AbortSignal;
  /** Aborted when the HOST cancels this helper. */
  cancel: AbortSignal;
  clock: Clock;
  /** The hourly budget shared with the parent: why to stop now, if it is spent. */
  quotaStop: () => string | undefined;
  observe: Observe;
  /** Told of each model call it makes, for help(). */
  onModelCall: () => void;
}

/** The names a call is known by are among the granted tools' (a group's: its op offered). */
const granted = (call: CallDecoding, schemas: readonly ToolSchema[]): boolean => {
  const offered = new Map(schemas.map(schema => [schema.function.name, schema]));
  const [first, group] = call.names;
  if (group === undefined) return first !== undefined && offered.has(first) && !isGroup(first);
  const enumOps = offered.get(group)?.function.parameters.properties?.op?.enum ?? [];
  return first !== undefined && enumOps.includes(first);
};

const handedResult = (call: CallDecoding): string | undefined => {
  if (!call.ok) return undefined;
  const result = call.args.result;
  return typeof result === 'string' ? result : JSON.stringify(result ?? '');
};

export const runHelper = async (
  setup: HelperSetup,
): Promise<{ end: HelperEnd; turn: Turn; modelCalls: number }> => {
  const { budget, clock } = setup;
  const own = new AbortController();
  let timedOut = false;
  const disarm = clock.at(clock.now() + budget.ms, () => {
    timedOut = true;
    own.abort();
  });
  const onCancel = () => own.abort();
  setup.cancel.addEventListener('abort', onCancel);
  setup.signal.addEventListener('abort', onCancel);
  let tokens = 0;
  // Whether its own tokens stopped it, rather than the hourly budget it shares.
  let overTokens = false;
  let handed: string | undefined;
  const provider = meteredProvider(setup.provider, (_model, result) => {
    tokens += (result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0);
    setup.onModelCall();
  });
  const conversation = emptyConversation();
  const turn = startTurn(conversation, setup.title, setup.task);
  try {
    const outcome = await runTurn({
      title: setup.title,
      provider,
      systemPrompt: setup.systemPrompt,
      conversation,
      turn,
      tools: {
        offer: () => [...setup.schemas, HAND_BACK_SCHEMA],
        decode: setup.decodeCall,
        execute: setup.execute,
      },
      beforeToolCall: async (call, step) => {
        if (call.call.name === HAND_BACK) {
          handed = handedResult(call) ?? '';
          return JSON.stringify({ handedBack: true });
        }
        // Only what it was given runs, whatever name the model writes (behaviour 7.9).
        if (!granted(call, setup.schemas))
          return renderError(
            new Error(
              `"${call.call.name}" is not one of this helper's tools: ${step.offered.join(', ')}`,
            ),
          );
        return setup.guard.beforeToolCall?.(call, step);
      },
      ...(setup.guard.afterToolCall === undefined
        ? {}
        : { afterToolCall: setup.guard.afterToolCall }),
      // Its work ends with the batch in which it handed back.
      endWhen: { called: HAND_BACK },
      beforeModelCall: () => {
        const show = setup.takeNotices();
        const spent = setup.quotaStop();
        if (spent !== undefined) return { show, stop: spent };
        if (tokens >= (budget.tokens ?? Number.POSITIVE_INFINITY)) {
          overTokens = true;
          return { show, stop: `it used its ${budget.tokens} tokens (${tokens})` };
        }
        return { show };
      },
      limits: { ...setup.limits, maxModelCalls: budget.modelCalls },
      signal: own.signal,
      observe: setup.observe,
    });
    const end = ((): HelperEnd => {
      const why = outcome.error ?? outcome.stopReason;
      if (handed !== undefined) return { status: 'done', result: handed };
      switch (outcome.stopReason) {
        case 'done':
          return outcome.finalText.trim() === ''
            ? { status: 'failed', error: 'it ended without a result' }
            : { status: 'done', result: outcome.finalText };
        case 'cancelled':
          if (timedOut) return { status: 'timeout' };
          return setup.cancel.aborted ? { status: 'cancelled' } : { status: 'stopped' };
        case 'quota':
          return overTokens ? { status: 'budget', why } : { status: 'quota', why };
        case 'max-model-calls':
          return {
            status: 'budget',
            why: `it used its ${budget.modelCalls} model call${budget.modelCalls === 1 ? '' : 's'}`,
          };
        default:
          return { status: 'failed', error: why };
      }
    })();
    return { end, turn, modelCalls: outcome.modelCalls };
  } finally {
    disarm();
    setup.cancel.removeEventListener('abort', onCancel);
    setup.signal.removeEventListener('abort', onCancel);
  }
};
harden(runHelper);
