/**
 * Phi-4-mini: `functools[{"name": …, "arguments": {…}}, …]` (vLLM
 * phi4mini_tool_parser.py; llama.cpp
 * models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja).
 */
import { jsonListAfterMarker } from './json-list-after-marker.js';
import { NAME_ARGUMENTS } from './json-text.js';

export const phi4Mini = jsonListAfterMarker('Phi-4-mini functools[…]', 'functools', NAME_ARGUMENTS);
harden(phi4Mini);
