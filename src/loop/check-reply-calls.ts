/**
 * The one gate every tool call of a model reply passes before it enters the
 * history, whether the provider returned it structured or it was recovered
 * from the reply's text. A call that would make a later request invalid is
 * kept (the model asked for it, and must see an answer) but rewritten so
 * every provider accepts it, and answered with an error instead of being run:
 * - a name outside `^[a-zA-Z0-9_-]{1,64}$` (Anthropic rejects the whole
 *   request for one such name in the history, e.g. `functions.list`);
 * - calls beyond the per-reply cap (a reply of hundreds of calls).
 * Ids are made unique in the conversation: a model that reuses `call_1`
 * across replies would otherwise have its later call dropped by the history
 * repair, which pairs results with calls by id.
 */
import type { ChatMessage, ToolCall } from '../../providers/types.js';
import { groupOfOp } from '../agent-tools/tool-groups.js';

const VALID_CALL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Anthropic's pattern for tool_use ids; the length keeps OpenAI-compatible servers content.
const VALID_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const NAME_IN_HISTORY_WHEN_EMPTY = 'invalid_tool_name';

export interface CheckedCall {
  /** The call as it goes into the history. */
  call: ToolCall;
  /** When set, the call is not run and this is its result (an `{"error": …}` text). */
  refusal?: string;
}

export interface CallCheck {
  /** Ids already used by calls in the history kept word for word. */
  idsInUse: ReadonlySet<string>;
  makeId: () => string;
  /** Calls one reply may make (LAL_MAX_CALLS_PER_REPLY). */
  maxCalls: number;
  /** The tool names offered, to point the model at the one it probably meant. */
  toolNames: readonly string[];
}

/** The ids of the tool calls in these messages. */
export const callIdsIn = (messages: Iterable<ChatMessage>): Set<string> => {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
  }
  return ids;
};
harden(callIdsIn);

/** A name every provider accepts, as close to the original as can be. */
const nameForHistory = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? NAME_IN_HISTORY_WHEN_EMPTY : cleaned;
};

/** An offered tool, or the former name of an op of an offered grouped tool (`list` of `names`). */
const callable = (name: string, toolNames: readonly string[]): boolean => {
  const group = groupOfOp(name);
  return toolNames.includes(name) || (group !== undefined && toolNames.includes(group));
};

const badNameRefusal = (name: string, toolNames: readonly string[]): string => {
  // `functions.list`, `tools/list`, `default_api:list`: the last part is often the tool meant.
  const lastPart = name
    .split(/[^a-zA-Z0-9_-]+/)
    .filter(part => part !== '')
    .pop();
  const meant =
    lastPart !== undefined && callable(lastPart, toolNames) ? ` Did you mean "${lastPart}"?` : '';
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return JSON.stringify({
    error: `not run: "${shown}" is not a valid tool name (letters, digits, _ and - only, at most 64). Call a tool by its exact name.${meant}`,
  });
};

const overCapRefusal = (index: number, total: number, maxCalls: number): string =>
  JSON.stringify({
    error: `not run: one reply may make at most ${maxCalls} tool calls, and this was call ${index + 1} of ${total}. Make the calls that matter first, at most ${maxCalls} at a time.`,
  });

export const checkReplyCalls = (calls: readonly ToolCall[], check: CallCheck): CheckedCall[] => {
  const taken = new Set(check.idsInUse);
  return calls.map((call, index) => {
    const rawName = typeof call.name === 'string' ? call.name : '';
    let id = typeof call.id === 'string' ? call.id : '';
    if (!VALID_CALL_ID.test(id) || taken.has(id)) {
      do id = check.makeId();
      while (taken.has(id));
    }
    taken.add(id);
    const argumentsText =
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    const name = VALID_CALL_NAME.test(rawName) ? rawName : nameForHistory(rawName);
    const checked: ToolCall = { id, name, arguments: argumentsText };
    if (index >= check.maxCalls)
      return { call: checked, refusal: overCapRefusal(index, calls.length, check.maxCalls) };
    if (name !== rawName)
      return { call: checked, refusal: badNameRefusal(rawName, check.toolNames) };
    return { call: checked };
  });
};
harden(checkReplyCalls);
