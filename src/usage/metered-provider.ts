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
