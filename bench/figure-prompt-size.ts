/**
 * The first request's size in real tokens (Qwen3's tokenizer and chat
 * template): the system prompt, the tool definitions and both together,
 * per persona, against the 1,500-token target. The tools are those offered
 * on the default daemon (the newest adds messageHistory and a prompt section).
 */
import type { ToolSchema } from '../providers/types.js';
import type { Persona } from '../src/config.js';
import { systemPrompt } from '../src/system-prompt.js';
import { BUILTIN_SCHEMAS } from '../src/tools/builtin-schemas.js';
import { schemasFor } from '../src/daemon/speak-generation.js';
import { chatTemplatePieces } from './prompt-layouts.js';
import type { QwenTokenizer } from './qwen-tokenizer.js';

export const FIRST_REQUEST_TARGET = 1_500;

export interface PromptSize {
  persona: Persona;
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
  tools: readonly ToolSchema[] = schemasFor(BUILTIN_SCHEMAS, undefined),
): Promise<PromptSize> => {
  const system = systemPrompt(persona);
  const whole = chatTemplatePieces([{ role: 'system', content: system }], tools).join('');
  const bare = chatTemplatePieces([{ role: 'system', content: system }], []).join('');
  const [totalTokens = 0, systemTokens = 0] = (await tokenizer.encode([whole, bare])).map(
    ids => ids.length,
  );
  return {
    persona,
    systemTokens,
    toolTokens: totalTokens - systemTokens,
    totalTokens,
    systemChars: system.length,
    toolChars: tools.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0),
  };
};
