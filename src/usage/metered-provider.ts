/**
 * The provider as the agent calls it: every answered call is counted in
 * the usage ledger under the model that served it (a fallback may have).
 */
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  Provider,
  ToolSchema,
} from '../../providers/types.js';

export const meteredProvider = (
  provider: Provider,
  count: (model: string, result: ChatResult) => void,
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
      const result = await provider.chat(messages, tools, options);
      count(result.model ?? provider.model, result);
      return result;
    },
  });
harden(meteredProvider);
