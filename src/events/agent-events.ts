/**
 * What the agent reports as it works, for its log and for hosts that show
 * progress (the terminal simulator). Observers never affect the agent.
 */
import type { Usage } from '../../providers/types.js';

export type StopReason =
  | 'done'
  | 'answered'
  | 'error'
  | 'max-model-calls'
  | 'repeated-calls'
  | 'truncated'
  | 'quota'
  | 'cancelled';

export type AgentEvent =
  | { kind: 'turn-start'; title: string }
  | { kind: 'model-call'; call: number; estimatedTokens: number; chars: number }
  /** The text of a streamed reply so far (all of it, each time more arrives); not logged. */
  | { kind: 'model-text'; call: number; text: string }
  | { kind: 'model-reply'; call: number; usage: Usage | undefined; toolCalls: number }
  /**
   * A tool call begun, and its result: `id` is the call's own, unique to the agent (unique in its
   * conversation, src/loop/check-reply-calls.ts; a helper's prefixed with the helper's id,
   * src/helpers/helper-call-ids.ts), so an observer pairs a result with its call by id alone, even
   * when two calls of one tool run at once (an approved call outliving its turn, behaviour 6.7; a
   * helper's beside the agent's, behaviour 7.9).
   */
  | { kind: 'tool-call'; id: string; name: string; summary: string }
  | { kind: 'tool-result'; id: string; name: string; ok: boolean; preview: string }
  /**
   * A call put to the HOST for approval instead of running now (it runs, if approved, outside the
   * turn): `id` is the call's, which that later run's `tool-call` and `tool-result` carry too.
   */
  | { kind: 'tool-asked'; id: string; name: string }
  /** A message kept for later, no turn now (an hourly budget spent, its sender past a bound); its sender is told. */
  | { kind: 'held'; number: bigint; reason: string }
  | {
      kind: 'turn-end';
      /** The turn-start's title: which turn ended, when turns overlap (a helper's beside the agent's). */
      title: string;
      stopReason: StopReason;
      modelCalls: number;
      usage: Usage;
      /** Set when `usage` holds an estimate (a model call stopped part-way, which the server never counted). */
      usageEstimated?: true;
      error?: string;
      models?: string[];
    };

export type Observe = (event: AgentEvent) => void;
