/**
 * Whether to speak when no one addressed the agent: one small request to
 * the routing model (LAL_ROUTER_MODEL, else upstream's ENDO_LLM_FAST_MODEL,
 * else the main model), told the channel's level and the last few messages,
 * answering yes or no. Anything but a clear yes, a failure included, is no.
 */
import type { Provider } from '../../providers/types.js';
import { LEVEL_MEANING, type Level } from './channel-levels.js';

const CONTEXT_LINES = 6;
const LINE_MAX_CHARS = 400;

export const shouldSpeak = async (options: {
  provider: Provider;
  agentName: string;
  level: Exclude<Level, 'observer'>;
  /** The last lines of the channel, oldest first, the one to judge last. */
  lines: readonly string[];
  signal?: AbortSignal;
}): Promise<boolean> => {
  const lines = options.lines.slice(-CONTEXT_LINES).map(line => line.slice(0, LINE_MAX_CHARS));
  const result = await options.provider.chat(
    [
      {
        role: 'system',
        content: `You decide whether ${options.agentName}, a member of a group chat, should answer the last message. In this channel ${options.agentName} ${LEVEL_MEANING[options.level]}. Answer only "yes" or "no".`,
      },
      { role: 'user', content: lines.join('\n') },
    ],
    [],
    options.signal === undefined ? {} : { signal: options.signal },
  );
  return /^\W*yes\b/i.test(result.message.content ?? '');
};
harden(shouldSpeak);
