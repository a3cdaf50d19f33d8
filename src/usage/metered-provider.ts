/**
 * The provider as the agent calls it: every answered call is counted in
 * the usage ledger under the model that served it (a fallback may have),
 * and a call stopped part-way by a cancellation too, with an estimate.
 */
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  Provider,
  ToolSchema,
} from '../../providers/types.js';
import { CHARS_PER_TOKEN, estimateRequestTokens } from '../history/estimate-tokens.js';

export const meteredProvider = (
  provider: Provider,
  count: (model: string, result: Pick<ChatResult, 'usage'>) => void,
): Provider =>
  harden({
    kind: provider.kind,
    model: provider.model,
    ...(provider.choice === undefined ? {} : { choice: provider.choice }),
    ...(provider.chain === undefined ? {} : { chain: provider.chain }),
    ...(provider.only === undefined
      ? {}
      : {
          only: (model: string) => {
            const one = provider.only?.(model);
            // Its calls are counted too: a helper's cheaper model spends the same hourly budget.
            return one === undefined ? undefined : meteredProvider(one, count);
          },
        }),
    chat: async (
      messages: readonly ChatMessage[],
      tools: readonly ToolSchema[],
      options?: ChatOptions,
    ) => {
      let streamed = '';
      const onText =
        options?.onText === undefined
          ? undefined
          : (text: string) => {
              streamed = text;
              options.onText?.(text);
            };
      const result = await provider
        .chat(messages, tools, { ...options, ...(onText === undefined ? {} : { onText }) })
        .catch((error: unknown) => {
          // Stopped part-way (a cancellation): a call made all the same, which the server read
          // and partly answered but never counted; counted with an estimate (issue 45).
          if (options?.signal?.aborted === true)
            count(provider.model, {
              usage: {
                inputTokens: estimateRequestTokens(messages, tools),
                outputTokens: Math.ceil(streamed.length / CHARS_PER_TOKEN),
              },
            });
          throw error;
        });
      count(result.model ?? provider.model, result);
      return result;
    },
  });
harden(meteredProvider);
