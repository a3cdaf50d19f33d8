/**
 * Cohere Command R7B: a plan in `<|START_THINKING|>…<|END_THINKING|>`
 * (reasoning, dropped), then `<|START_ACTION|>[{"tool_call_id": "0",
 * "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>`; words for the
 * person come in `<|START_RESPONSE|>…<|END_RESPONSE|>`. Shape from llama.cpp
 * models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja and
 * tests/test-chat.cpp.
 */
import type { CallFormat } from './call-format.js';
import { jsonListAfterMarker } from './json-list-after-marker.js';

const SHAPE = { nameKey: 'tool_name', argumentKeys: ['parameters'], extraKeys: ['tool_call_id'] };
const action = jsonListAfterMarker('Command R7B', '<|START_ACTION|>', SHAPE, '<|END_ACTION|>');

const words = (text: string): string =>
  text
    .replace(/<\|START_THINKING\|>[\s\S]*?<\|END_THINKING\|>/g, '')
    .replace(/<\|(?:START|END)_RESPONSE\|>/g, '');

export const commandR7b: CallFormat = {
  family: 'Command R7B <|START_ACTION|>',
  detect: action.detect,
  parse: (text, offered) => action.parse(words(text), offered),
};
harden(commandR7b);
