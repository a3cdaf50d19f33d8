/**
 * Builds the messages for one model call within the token budget. Finished
 * turns beyond `keepTurns` are folded into the digest; if the request is
 * still over budget, more finished turns are folded, then the digest is
 * trimmed, then old tool results of the turn in progress are elided (the
 * call and its result stay paired). The system prompt always stays.
 */
import type { ChatMessage, ToolSchema } from '../../providers/types.js';
import type { Conversation } from './conversation.js';
import { foldOldestTurn, renderDigest, trimDigest } from './digest.js';
import { CHARS_PER_TOKEN, measureRequest } from './estimate-tokens.js';
import { repairHistory } from './repair-history.js';

export const ELIDED_RESULT = '[elided to keep the request within the context budget]';
// Share of the budget the digest may take.
const DIGEST_SHARE = 0.2;

export interface RequestBudget {
  contextTokens: number;
  keepTurns: number;
  /** Characters the digest may take (never more than a fifth of the budget). */
  digestChars: number;
}

export interface BuiltRequest {
  messages: ChatMessage[];
  estimatedTokens: number;
  /** Characters of text it carries (for reports). */
  chars: number;
}

const assemble = (systemPrompt: string, conversation: Conversation): ChatMessage[] => {
  const digest = renderDigest(conversation);
  const system = digest === '' ? systemPrompt : `${systemPrompt}\n\n${digest}`;
  const history = conversation.turns.flatMap(turn => turn.messages);
  return [{ role: 'system', content: system }, ...repairHistory(history)];
};

/** Elides the oldest not-yet-elided tool result of the turn in progress; false when none is left. */
const elideOldestResult = (conversation: Conversation): boolean => {
  const current = conversation.turns[conversation.turns.length - 1];
  if (current === undefined) return false;
  // Keep the latest result: the model is acting on it.
  const results = current.messages.filter(message => message.role === 'tool');
  const candidate = results.slice(0, -1).find(message => message.content !== ELIDED_RESULT);
  if (candidate === undefined || candidate.role !== 'tool') return false;
  candidate.content = ELIDED_RESULT;
  return true;
};

export const buildRequest = (
  systemPrompt: string,
  conversation: Conversation,
  tools: readonly ToolSchema[],
  budget: RequestBudget,
): BuiltRequest => {
  // The last turn is the one in progress; only finished turns fold.
  while (conversation.turns.length - 1 > budget.keepTurns) foldOldestTurn(conversation);
  trimDigest(conversation, Math.min(budget.digestChars, budget.contextTokens * CHARS_PER_TOKEN * DIGEST_SHARE));
  let messages = assemble(systemPrompt, conversation);
  let size = measureRequest(messages, tools);
  while (size.estimatedTokens > budget.contextTokens) {
    if (conversation.turns.length > 1) {
      foldOldestTurn(conversation);
    } else if (conversation.digest.length > 4) {
      trimDigest(conversation, Math.floor(conversation.digest.reduce((sum, entry) => sum + entry.text.length, 0) / 2));
    } else if (!elideOldestResult(conversation)) {
      break;
    }
    messages = assemble(systemPrompt, conversation);
    size = measureRequest(messages, tools);
  }
  return { messages, ...size };
};
