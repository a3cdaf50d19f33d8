/**
 * One log line per agent event, short enough to read in a worker log.
 */
import type { AgentEvent } from './agent-events.js';

export const describeEvent = (event: AgentEvent): string | undefined => {
  switch (event.kind) {
    case 'model-text':
      // A streamed reply's text so far: shown live, logged once whole (the reply and its tool calls).
      return undefined;
    case 'turn-start':
      return `turn: ${event.title}`;
    case 'model-call':
      return `model call ${event.call}: ~${event.estimatedTokens} tokens, ${event.chars} characters`;
    case 'model-reply':
      return `model reply ${event.call}: ${event.toolCalls} tool call(s)${event.usage === undefined ? '' : `, ${event.usage.inputTokens} in / ${event.usage.outputTokens} out`}`;
    case 'tool-call':
      return `→ ${event.name} ${event.summary}`;
    case 'tool-result':
      return `${event.ok ? '✓' : '✗'} ${event.name} ${event.preview}`;
    case 'tool-asked':
      return `→ ${event.name} waits for approval`;
    case 'held':
      return `message #${event.number} held: ${event.reason}`;
    case 'turn-end':
      return `turn ended (${event.stopReason}) after ${event.modelCalls} model call(s)${event.error === undefined ? '' : `: ${event.error}`}`;
    default:
      return 'unknown event';
  }
};
harden(describeEvent);
