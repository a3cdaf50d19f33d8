/**
 * A provider made of several: calls go to the current one; when it fails
 * in a way that retrying will not mend soon (refused connection, 5xx after
 * retries, 429 after retries or with a long Retry-After, a timeout) the
 * same request goes to the next. Each provider converts the shared message
 * format for its own protocol, so the history follows the switch. After a
 * cool-down the first is tried again.
 */
import { ProviderError } from './types.js';
import type { ChatMessage, ChatOptions, ChatResult, Provider, ToolSchema } from './types.js';

export interface ChainLink {
  provider: Provider;
  /** Where it is, for the log and help() (no credentials). */
  host: string;
}

export interface ChainOptions {
  coolDownMs: number;
  log?: (line: string) => void;
  now?: () => number;
}

const FALL_BACK_ON = new Set(['connection', 'server', 'timeout', 'rate-limit']);

/** Whether a failure should send the request to the next server. */
const worthFallingBack = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && FALL_BACK_ON.has(error.kind);

export const makeFallbackChain = (links: readonly ChainLink[], options: ChainOptions): Provider => {
  const [first] = links;
  if (first === undefined)
    throw new ProviderError('config', 'a fallback chain needs at least one server');
  if (links.length === 1) return first.provider;
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  let current = 0;
  let leftFirstAt = 0;
  const name = (index: number) => `${links[index]!.provider.model} at ${links[index]!.host}`;

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions?: ChatOptions,
  ): Promise<ChatResult> => {
    if (current !== 0 && now() - leftFirstAt >= options.coolDownMs) {
      log(`trying ${name(0)} again after the cool-down`);
      current = 0;
    }
    const order = [...links.keys()].slice(current).concat([...links.keys()].slice(0, current));
    const failures: string[] = [];
    let lastKind: ProviderError['kind'] = 'unknown';
    for (const index of order) {
      try {
        // eslint-disable-next-line no-await-in-loop -- one link at a time: the next is asked only when this one failed
        const result = await links[index]!.provider.chat(messages, tools, chatOptions);
        if (index !== current) log(`switched to ${name(index)}`);
        if (current === 0 && index !== 0) leftFirstAt = now();
        current = index;
        return { ...result, model: links[index]!.provider.model };
      } catch (error) {
        if (!worthFallingBack(error) || chatOptions?.signal?.aborted) throw error;
        lastKind = error.kind;
        failures.push(`${links[index]!.provider.model}: ${error.message}`);
        log(`${name(index)} failed (${error.message}); trying the next server`);
      }
    }
    throw new ProviderError(lastKind, `every model server failed — ${failures.join(' — ')}`);
  };

  return harden({
    kind: first.provider.kind,
    model: first.provider.model,
    ...(first.provider.choice === undefined ? {} : { choice: first.provider.choice }),
    chain: links.map(link => ({
      kind: link.provider.kind,
      model: link.provider.model,
      host: link.host,
    })),
    // A helper agent's cheaper model is one server of the chain, alone (behaviour 7.9).
    only: (model: string) => links.find(link => link.provider.model === model)?.provider,
    chat,
  });
};
harden(makeFallbackChain);
