/**
 * The first request's size in real tokens (Qwen3's tokenizer and chat
 * template): the system prompt, the tool definitions and both together,
 * per persona and daemon generation, against the 1,500-token target (the
 * newest daemon respells the special names and adds mail's messageHistory op).
 */
import type { ToolSchema } from '../providers/types.js';
import type { Persona } from '../src/config/config.js';
import { systemPrompt } from '../src/prompt/system-prompt.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { promptFor, schemasFor, type DaemonWords } from '../src/prompt/speak-generation.js';
import { chatTemplatePieces } from './prompt-layouts.js';
import type { QwenTokenizer } from './qwen-tokenizer.js';

export const FIRST_REQUEST_TARGET = 1_500;
harden(FIRST_REQUEST_TARGET);

/** The newest daemon's wording, as its adapter names things. */
export const NEWEST_WORDS: DaemonWords = harden({
  generation: 'newest',
  names: { host: '@host', self: '@self', agent: '@agent', mail: '@mail' },
});
harden(NEWEST_WORDS);

export interface PromptSize {
  persona: Persona;
  generation: DaemonWords['generation'];
  systemTokens: number;
  toolTokens: number;
  /** System prompt and tools as the template lays them out, markers included. */
  totalTokens: number;
  systemChars: number;
  toolChars: number;
}

export const measurePromptSize = async (
  tokenizer: QwenTokenizer,
  persona: Persona,
  daemon?: DaemonWords,
): Promise<PromptSize> => {
  const system = promptFor(systemPrompt(persona), daemon);
  const tools: readonly ToolSchema[] = schemasFor(BUILTIN_SCHEMAS, daemon);
  const whole = chatTemplatePieces([{ role: 'system', content: system }], tools).join('');
  const bare = chatTemplatePieces([{ role: 'system', content: system }], []).join('');
  const [totalTokens = 0, systemTokens = 0] = (await tokenizer.encode([whole, bare])).map(
    ids => ids.length,
  );
  return {
    persona,
    generation: daemon?.generation ?? 'f0a46042a',
    systemTokens,
    toolTokens: totalTokens - systemTokens,
    totalTokens,
    systemChars: system.length,
    toolChars: tools.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0),
  };
};
harden(measurePromptSize);
