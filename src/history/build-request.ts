/**
 * Builds the messages for one model call within the token budget, laid out
 * for prompt caches: the system prompt never changes, the digest of folded
 * turns comes after it (and after the tools, in every chat template) as a
 * user message of its own, and between two folds each request is the
 * previous one plus what was appended. Finished turns fold in blocks: once
 * more than twice `keepTurns` are kept, all but the last `keepTurns` go into
 * the digest at once, so only one request in `keepTurns + 1` rewrites the
 * beginning. If the request is still over budget, more finished turns are
 * folded, then the digest is trimmed, then old tool results of the turn in
 * progress are elided (the call and its result stay paired).
 */
import type { ChatMessage, ToolSchema } from '../../providers/types.js';
import type { Conversation } from './conversation.js';
import { foldOldestTurn, renderDigest, trimDigest } from './digest.js';
import { CHARS_PER_TOKEN, measureRequest } from './estimate-tokens.js';
import { repairHistory } from './repair-history.js';

export const ELIDED_RESULT = '[elided to keep the request within the context budget]';
harden(ELIDED_RESULT);
// Share of the budget the digest may take.
const DIGEST_SHARE = 0.2;
// Share of its limit a full digest is trimmed to: its middle goes in blocks, as turns fold in blocks.
const DIGEST_TRIMMED_TO = 0.5;

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
  // A user message: the one role every provider and chat template accepts after the tools (Qwen's template rejects a second system message).
  const digestMessages: ChatMessage[] = digest === '' ? [] : [{ role: 'user', content: digest }];
  const history = conversation.turns.flatMap(turn => turn.messages);
  return [
    { role: 'system', content: systemPrompt },
    ...repairHistory([...digestMessages, ...history]),
  ];
};

/** The thread's own finished turns (the last turn is the one in progress; only finished turns fold). */
const finishedTurns = (conversation: Conversation): number =>
  conversation.turns.slice(0, -1).filter(turn => turn.thread === undefined).length;

/**
 * Whether the next request rewrites the conversation's beginning anyway: a
 * block of turns folds, or nothing of it was sent before. What may change
 * the request's first bytes (the tools offered) changes then, when a prompt
 * cache has nothing to lose (src/toolbox/).
 */
export const rewritesBeginning = (conversation: Conversation, keepTurns: number): boolean =>
  finishedTurns(conversation) > 2 * keepTurns ||
  (finishedTurns(conversation) === 0 && conversation.digest.length === 0);
harden(rewritesBeginning);

/**
 * Folds finished turns in a block once more than twice `keepTurns` of them
 * are kept. Only the thread's own turns count: other senders' turns shown
 * in the HOST's thread (./threads.ts) stay between them until they fold with
 * the HOST's, so a conversation going back and forth between the HOST and
 * others rewrites the HOST's beginning no more often than the HOST's alone.
 */
const foldInBlocks = (conversation: Conversation, keepTurns: number): void => {
  const finished = () => finishedTurns(conversation);
  if (finished() <= 2 * keepTurns) return;
  // Others' lines fold into one digest line per block: the digest grows as the HOST's alone would.
  const others = new Map<string, number>();
  while (finished() > keepTurns) {
    const oldest = conversation.turns[0]!;
    if (oldest.thread === undefined) foldOldestTurn(conversation);
    else {
      conversation.turns.shift();
      others.set(oldest.thread, (others.get(oldest.thread) ?? 0) + 1);
    }
  }
  if (others.size > 0) conversation.digest.push({ text: othersLine(others), count: 1 });
};

/** The digest's line for the turns of other threads folded in one block. */
const othersLine = (others: ReadonlyMap<string, number>): string => {
  const turns = [...others.values()].reduce((sum, count) => sum + count, 0);
  const who = [...others].map(([sender, count]) => `${sender} (${count})`).join(', ');
  return `meanwhile ${turns} exchange${turns === 1 ? '' : 's'} with others in their own threads: ${who}; mail recall finds them`;
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
  foldInBlocks(conversation, budget.keepTurns);
  const digestChars = Math.min(
    budget.digestChars,
    budget.contextTokens * CHARS_PER_TOKEN * DIGEST_SHARE,
  );
  trimDigest(conversation, digestChars, digestChars * DIGEST_TRIMMED_TO);
  let messages = assemble(systemPrompt, conversation);
  let size = measureRequest(messages, tools);
  while (size.estimatedTokens > budget.contextTokens) {
    if (conversation.turns.length > 1) {
      foldOldestTurn(conversation);
    } else if (conversation.digest.length > 4) {
      trimDigest(
        conversation,
        Math.floor(conversation.digest.reduce((sum, entry) => sum + entry.text.length, 0) / 2),
      );
    } else if (!elideOldestResult(conversation)) {
      break;
    }
    messages = assemble(systemPrompt, conversation);
    size = measureRequest(messages, tools);
  }
  return { messages, ...size };
};
harden(buildRequest);
