/**
 * Anthropic prompt caching: `cache_control` breakpoints on the last tool,
 * the system prompt and the last message. Anthropic reads its prompt as
 * tools, system, messages; a breakpoint caches everything before it, and a
 * later request finds the longest cached prefix by looking back from its own
 * breakpoints. The tools and the system prompt stay the same all
 * conversation; the history only grows between folds, so the last message of
 * one request lies inside the next. Three breakpoints, within the four allowed.
 */
import type Anthropic from '@anthropic-ai/sdk';

type WireMessage = Anthropic.Messages.MessageParam;
type WireTool = Anthropic.Messages.Tool;
type WireSystem = Anthropic.Messages.TextBlockParam[];

const EPHEMERAL = { type: 'ephemeral' } as const;

export interface CacheableRequest {
  system?: WireSystem;
  messages: WireMessage[];
  tools?: WireTool[];
}

const markLastBlock = (message: WireMessage): WireMessage => {
  const blocks =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const last = blocks[blocks.length - 1];
  // Thinking blocks cannot carry cache_control; the request is then left as it is.
  if (last === undefined || last.type === 'thinking' || last.type === 'redacted_thinking')
    return message;
  const marked = { ...last, cache_control: EPHEMERAL } as Anthropic.Messages.ContentBlockParam;
  return { ...message, content: [...blocks.slice(0, -1), marked] } as WireMessage;
};

export const withCacheBreakpoints = (parts: {
  system: string | undefined;
  messages: WireMessage[];
  tools: WireTool[];
}): CacheableRequest => {
  const { system, messages, tools } = parts;
  const lastMessage = messages[messages.length - 1];
  return {
    ...(system === undefined
      ? {}
      : { system: [{ type: 'text', text: system, cache_control: EPHEMERAL }] }),
    messages:
      lastMessage === undefined ? messages : [...messages.slice(0, -1), markLastBlock(lastMessage)],
    ...(tools.length === 0
      ? {}
      : {
          tools: [
            ...tools.slice(0, -1),
            { ...(tools[tools.length - 1] as WireTool), cache_control: EPHEMERAL },
          ],
        }),
  };
};
harden(withCacheBreakpoints);
