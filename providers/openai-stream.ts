/**
 * Collects an OpenAI-compatible stream of `chat.completion.chunk`s into the
 * whole completion it stands for, so tool calls and truncation are judged on
 * the whole reply by the same code as an unstreamed one. Text is told to
 * `onText` (all of it so far) as it grows. Tool call pieces are joined by
 * their `index`; usage (and llama.cpp's `timings`) come in the last chunks.
 */
import type OpenAI from 'openai';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface CallSoFar {
  id: string;
  name: string;
  arguments: string;
}

/** The completion the stream stood for, in the unstreamed shape (a partial one when it was cut). */
export interface CollectedCompletion {
  choices: OpenAI.Chat.Completions.ChatCompletion['choices'];
  usage?: OpenAI.Completions.CompletionUsage;
  timings?: Record<string, unknown>;
}

export const makeOpenAIStreamCollector = (onText?: (textSoFar: string) => void) => {
  let text: string | undefined;
  let refusal: string | undefined;
  const calls: CallSoFar[] = [];
  let finishReason: string | null = null;
  let sawChoice = false;
  let usage: CollectedCompletion['usage'];
  let timings: Record<string, unknown> | undefined;

  const addCalls = (deltas: Chunk['choices'][number]['delta']['tool_calls']) => {
    for (const delta of deltas ?? []) {
      const index = typeof delta.index === 'number' ? delta.index : calls.length;
      calls[index] ??= { id: '', name: '', arguments: '' };
      const call = calls[index];
      if (typeof delta.id === 'string' && delta.id !== '') call.id = delta.id;
      if (typeof delta.function?.name === 'string') call.name += delta.function.name;
      if (typeof delta.function?.arguments === 'string') call.arguments += delta.function.arguments;
    }
  };

  const add = (chunk: Chunk) => {
    if (chunk.usage) usage = chunk.usage;
    const chunkTimings = (chunk as { timings?: unknown }).timings;
    if (chunkTimings !== null && typeof chunkTimings === 'object')
      timings = chunkTimings as Record<string, unknown>;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (choice === undefined || choice === null) return;
    sawChoice = true;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta ?? {};
    if (typeof delta.refusal === 'string') refusal = (refusal ?? '') + delta.refusal;
    addCalls(delta.tool_calls);
    if (typeof delta.content === 'string' && delta.content !== '') {
      text = (text ?? '') + delta.content;
      onText?.(text);
    }
  };

  /** The whole completion, or undefined when no chunk carried a choice (not a chat stream). */
  const completion = (): CollectedCompletion | undefined => {
    if (!sawChoice) return undefined;
    const toolCalls = calls
      .filter(call => call !== undefined)
      .map(call => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
    const message: OpenAI.Chat.Completions.ChatCompletionMessage = {
      role: 'assistant',
      content: text ?? null,
      refusal: refusal ?? null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return {
      choices: [
        {
          index: 0,
          message,
          logprobs: null,
          finish_reason: (finishReason ?? 'stop') as 'stop',
        },
      ],
      ...(usage ? { usage } : {}),
      ...(timings ? { timings } : {}),
    };
  };

  return { add, completion };
};
harden(makeOpenAIStreamCollector);
