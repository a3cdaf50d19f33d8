/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": …, "arguments": {…}}, …]`
 * (vLLM granite_tool_parser.py; llama.cpp
 * models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja). Granite 4
 * writes Hermes `<tool_call>` blocks instead (./hermes.ts).
 */
import { jsonListAfterMarker } from './json-list-after-marker.js';
import { NAME_ARGUMENTS } from './json-text.js';

export const granite = jsonListAfterMarker(
  'IBM Granite <|tool_call|>',
  '<|tool_call|>',
  NAME_ARGUMENTS,
);
harden(granite);
