/**
 * The status line a placeholder shows for what the turn is doing, read from
 * the agent's events: thinking, calling a tool, asking the host to approve
 * code; the text of a streamed reply as it grows. The model's own reply or
 * send is not a status: it is the answer.
 */
import type { AgentEvent } from '../events/agent-events.js';

export const FIRST_STATUS = 'thinking…';
harden(FIRST_STATUS);

/** Statuses from a turn's events (one reader per turn: it remembers the last tool). */
export const makeStatusReader = (options: { hostName: string; directEvaluation: boolean }) => {
  let lastTool: string | undefined;
  return (event: AgentEvent): string | undefined => {
    switch (event.kind) {
      case 'model-call':
        return lastTool === undefined ? FIRST_STATUS : `thinking (after ${lastTool})…`;
      case 'model-text':
        // The reply as it grows (the edits' throttle keeps it to one a second).
        return `${event.text}…`;
      case 'tool-call':
        if (event.name === 'reply' || event.name === 'send') return undefined;
        lastTool = event.name;
        if (event.name === 'evaluate')
          return options.directEvaluation
            ? 'running code…'
            : `asking ${options.hostName} to approve code…`;
        return `calling ${event.name}…`;
      default:
        return undefined;
    }
  };
};
harden(makeStatusReader);
