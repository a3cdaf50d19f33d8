/**
 * A helper's events with its tool calls' ids made unique to the agent (src/events/agent-events.ts).
 * A call's id is unique in its conversation only (src/loop/check-reply-calls.ts), and a helper's
 * conversation is its own (./run-helper.ts): its provider may give the ids the agent's gave
 * (call_1), and so may another helper's. Each is prefixed with the helper's id, unique among the
 * agent's helpers (h3), and a colon, which no id in a conversation has: an observer pairs a result
 * with its call by id alone (sim/chat/presenter.ts), whoever made it, and a call put to the HOST
 * (`tool-asked`) with the approved run that follows it.
 */
import type { Observe } from '../events/agent-events.js';

export const helperCallIds =
  (helperId: string, observe: Observe): Observe =>
  event =>
    observe(
      event.kind === 'tool-call' || event.kind === 'tool-result' || event.kind === 'tool-asked'
        ? { ...event, id: `${helperId}:${event.id}` }
        : event,
    );
harden(helperCallIds);
