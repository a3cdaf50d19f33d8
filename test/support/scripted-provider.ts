/**
 * An in-memory model for tests: replays scripted replies in order and
 * records every request it was sent. A step may be a reply, a function of
 * the request, or an error to throw.
 */
import type {
  AssistantMessage,
  ChatMessage,
  ChatOptions,
  ChatResult,
  Provider,
  ToolSchema,
  Usage,
} from '../../providers/types.js';
import { ProviderError } from '../../providers/types.js';

export interface RecordedRequest {
  messages: ChatMessage[];
  toolNames: string[];
  /** The tool definitions as offered (a grouped tool's `op` enum among them). */
  tools: ToolSchema[];
}

export type Step =
  | AssistantMessage
  | Error
  | ((
      request: RecordedRequest,
      signal: AbortSignal | undefined,
      /** The streamed text so far, as a provider tells it (a no-op when the caller gave none). */
      onText: (textSoFar: string) => void,
    ) => AssistantMessage | Promise<AssistantMessage>);

export interface ScriptedProvider extends Provider {
  requests: RecordedRequest[];
  /** Steps not yet used. */
  remaining(): number;
  push(...steps: Step[]): void;
  /** The usage every reply reports, when set (else a size of the request). */
  usage: Usage | undefined;
}

let ids = 0;
/** A reply that calls one tool. */
export const callTool = (
  name: string,
  args: unknown,
  extra: Partial<AssistantMessage> = {},
): AssistantMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [
    {
      id: `t${(ids += 1)}`,
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    },
  ],
  ...extra,
});
export const say = (content: string): AssistantMessage => ({ role: 'assistant', content });

export const makeScriptedProvider = (steps: Step[] = []): ScriptedProvider => {
  const queue = [...steps];
  const requests: RecordedRequest[] = [];
  const provider: ScriptedProvider = {
    kind: 'scripted',
    usage: undefined,
    model: 'scripted-model',
    requests,
    remaining: () => queue.length,
    push: (...more) => {
      queue.push(...more);
    },
    async chat(
      messages: readonly ChatMessage[],
      tools: readonly ToolSchema[],
      options?: ChatOptions,
    ): Promise<ChatResult> {
      const request: RecordedRequest = {
        messages: JSON.parse(JSON.stringify(messages)) as ChatMessage[],
        toolNames: tools.map(tool => tool.function.name),
        tools: JSON.parse(JSON.stringify(tools)) as ToolSchema[],
      };
      requests.push(request);
      const step = queue.shift();
      if (step === undefined)
        throw new ProviderError('unknown', 'the scripted model has no more replies');
      if (step instanceof Error) throw step;
      const message =
        typeof step === 'function'
          ? await step(request, options?.signal, options?.onText ?? (() => {}))
          : step;
      return {
        message,
        usage: provider.usage ?? { inputTokens: JSON.stringify(messages).length, outputTokens: 1 },
      };
    },
  };
  return provider;
};

/** A model that gives `replies` in order, then "done", putting each request's messages in `seen`. */
export const replying = (
  replies: readonly AssistantMessage[],
  seen: ChatMessage[][] = [],
): ScriptedProvider =>
  makeScriptedProvider(
    [...replies, say('done'), say('done')].map(reply => (request: RecordedRequest) => {
      seen.push(request.messages);
      return reply;
    }),
  );
harden(replying);
