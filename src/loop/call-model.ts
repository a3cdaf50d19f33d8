/**
 * One model call, with failure returned as data (a stop reason and a
 * message) rather than thrown, so the loop has one path for every outcome.
 */
import type {
  ChatMessage,
  Provider,
  ToolSchema,
  Usage,
  AssistantMessage,
} from '../../providers/types.js';
import { ProviderError } from '../../providers/types.js';
import { describeError } from '../../providers/describe-error.js';

export type ModelOutcome =
  | {
      ok: true;
      message: AssistantMessage;
      usage: Usage | undefined;
      model: string;
      /** Cut by the output limit: its calls must not run (./truncated-reply.ts). */
      truncated: boolean;
    }
  | {
      ok: false;
      aborted: boolean;
      error: string;
      /** The model server could not be reached, failed or answered nonsense: a rephrasing cannot help. */
      serverFailed?: true;
    };

/** The failures of the server itself, not of what was asked of it (../serving/turn-ending.ts). */
const SERVER_KINDS: ReadonlySet<string> = new Set([
  'connection',
  'server',
  'timeout',
  'rate-limit',
]);

export const callModel = async (
  provider: Provider,
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[],
  signal: AbortSignal,
  onText?: (textSoFar: string) => void,
): Promise<ModelOutcome> => {
  if (signal.aborted) return { ok: false, aborted: true, error: 'cancelled' };
  try {
    const { message, usage, model, truncated } = await provider.chat(messages, tools, {
      signal,
      ...(onText === undefined ? {} : { onText }),
    });
    if (message === undefined || message === null || typeof message !== 'object') {
      return { ok: false, aborted: false, error: 'the model returned no message' };
    }
    // The model that served it: a fallback server's, when the chain moved on.
    return {
      ok: true,
      message,
      usage,
      model: model ?? provider.model,
      truncated: truncated === true,
    };
  } catch (error) {
    const aborted = signal.aborted || (error instanceof ProviderError && error.kind === 'aborted');
    const text = describeError(error);
    const serverFailed = error instanceof ProviderError && SERVER_KINDS.has(error.kind);
    return { ok: false, aborted, error: text, ...(serverFailed ? { serverFailed } : {}) };
  }
};
harden(callModel);
