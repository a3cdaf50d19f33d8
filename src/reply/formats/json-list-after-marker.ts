/**
 * The shape several families share: the model's words, a marker, then a
 * JSON list of call objects (IBM Granite's `<|tool_call|>`, Phi-4-mini's
 * `functools`). Words after the list are kept too.
 */
import type { CallFormat } from './call-format.js';
import {
  callsFromList,
  endOfJsonValue,
  joinWords,
  parseJson,
  type CallObjectShape,
} from './json-text.js';

export const jsonListAfterMarker = (
  family: string,
  marker: string,
  shape: CallObjectShape,
  end = '',
): CallFormat => ({
  family,
  detect: text =>
    text.includes(`${marker}[`) || text.includes(`${marker} [`) || text.includes(`${marker}\n[`),
  parse(text, offered) {
    const at = text.indexOf(marker);
    const rest = text.slice(at + marker.length).trimStart();
    const close = endOfJsonValue(rest, 0);
    if (close === undefined) return undefined;
    const parsed = parseJson(rest.slice(0, close));
    const calls = parsed.ok ? callsFromList(parsed.value, shape, offered) : undefined;
    if (calls === undefined) return undefined;
    let after = rest.slice(close).trimStart();
    if (end !== '' && after.startsWith(end)) after = after.slice(end.length);
    return { calls, text: joinWords(text.slice(0, at), after) };
  },
});
harden(jsonListAfterMarker);
