/**
 * Turns the raw argument text of a tool call into the value the tool gets:
 * JSON (an error that says so when it is not JSON, never `{}`), strings kept
 * exactly as written. The few parameters that can hold a passable are read
 * SmallCaps-first by their readers (read-args.ts), never the free text.
 */
import { describeError } from '../../providers/describe-error.js';

export type DecodedArguments =
  { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

const preview = (text: string): string => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

export const decodeArguments = (raw: string): DecodedArguments => {
  const text = raw.trim();
  if (text === '') {
    // Models omit the argument object for tools that take none.
    return { ok: true, args: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = describeError(error);
    return {
      ok: false,
      error: `The arguments are not valid JSON (${reason}): ${preview(text)}. Send the arguments as one JSON object.`,
    };
  }
  // Some models double-encode: the arguments arrive as a JSON string holding JSON.
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return {
        ok: false,
        error: `The arguments are a JSON string, not an object: ${preview(text)}. Send the arguments as one JSON object.`,
      };
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      ok: false,
      error: `The arguments must be a JSON object, got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed}: ${preview(text)}`,
    };
  }
  return { ok: true, args: parsed as Record<string, unknown> };
};
harden(decodeArguments);
