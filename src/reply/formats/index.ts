/**
 * The registry of text tool-call formats, tried in this order: formats with
 * special tokens first, then tags, then the shapes that are only JSON or
 * Python (whole answers). The first format that finds calls wins; an answer
 * no format claims stays text. Adding a family: one file, one line here.
 */
import type { CallFormat } from './call-format.js';
import { commandR7b } from './command-r7b.js';
import { deepseek } from './deepseek.js';
import { fencedJson } from './fenced-json.js';
import { functionTags } from './function-tags.js';
import { functionaryV32 } from './functionary-v32.js';
import { gemmaToolCode } from './gemma-tool-code.js';
import { granite } from './granite.js';
import { harmony } from './harmony.js';
import { hermes } from './hermes.js';
import { llamaJson } from './llama-json.js';
import { mistral } from './mistral.js';
import { phi4Mini } from './phi4-mini.js';
import { pythonic } from './pythonic.js';

export const CALL_FORMATS: readonly CallFormat[] = [
  harmony,
  deepseek,
  commandR7b,
  granite,
  mistral,
  hermes,
  functionTags,
  phi4Mini,
  llamaJson,
  pythonic,
  functionaryV32,
  gemmaToolCode,
  fencedJson,
];
harden(CALL_FORMATS);

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { CallFormat, OfferedTools, TextCall } from './call-format.js';
