/**
 * Repairs the history before each model call so that every provider
 * accepts it: each tool call answered by exactly one result right after its
 * assistant message, no orphan results, no empty messages, the first
 * message after the system prompt from the user, no two user messages in a
 * row.
 */
import type { AssistantMessage, ChatMessage, ToolResultMessage } from '../../providers/types.js';

export const MISSING_RESULT = JSON.stringify({
  error: 'this call got no result (it was interrupted)',
});
harden(MISSING_RESULT);

export const repairHistory = (history: readonly ChatMessage[]): ChatMessage[] => {
  const out: ChatMessage[] = [];
  // Results by call id, gathered first so a result that strayed is put back in place.
  const results = new Map<string, ToolResultMessage>();
  for (const message of history) {
    if (message.role === 'tool' && !results.has(message.toolCallId))
      results.set(message.toolCallId, message);
  }
  const used = new Set<string>();
  for (const message of history) {
    switch (message.role) {
      case 'system':
        // The system prompt is placed by the caller; a stray one would be rejected by Anthropic.
        break;
      case 'tool':
        // Placed after its call below; an orphan is dropped.
        break;
      case 'user': {
        if (message.content.trim() === '') break;
        const previous = out[out.length - 1];
        if (previous !== undefined && previous.role === 'user') {
          out[out.length - 1] = {
            role: 'user',
            content: `${previous.content}\n\n${message.content}`,
          };
        } else {
          out.push({ role: 'user', content: message.content });
        }
        break;
      }
      case 'assistant': {
        const calls = (message.toolCalls ?? []).filter(call => !used.has(call.id));
        if (message.content.trim() === '' && calls.length === 0) break;
        if (out.length === 0) out.push({ role: 'user', content: '(The conversation continues.)' });
        const repaired: AssistantMessage =
          calls.length > 0
            ? { role: 'assistant', content: message.content, toolCalls: calls }
            : { role: 'assistant', content: message.content };
        out.push(repaired);
        for (const call of calls) {
          used.add(call.id);
          const result = results.get(call.id);
          out.push(
            result !== undefined
              ? { role: 'tool', toolCallId: call.id, name: call.name, content: result.content }
              : { role: 'tool', toolCallId: call.id, name: call.name, content: MISSING_RESULT },
          );
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
};
harden(repairHistory);
