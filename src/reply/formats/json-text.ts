/**
 * Reading JSON out of model text: a strict parse that says "not JSON"
 * instead of throwing, a scanner that finds where one JSON value ends inside
 * longer text, and the common `{name, arguments}` call object.
 */
import type { OfferedTools, TextCall } from './call-format.js';

export const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
};
harden(parseJson);

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
harden(isRecord);

/**
 * The end (exclusive) of the balanced JSON object or array that starts at
 * `start`, counting brackets outside strings; undefined when it never closes.
 */
export const endOfJsonValue = (text: string, start: number): number | undefined => {
  const open = text[start];
  if (open !== '{' && open !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
};
harden(endOfJsonValue);

/** Arguments as JSON text: an object is serialised, a string is taken as the JSON the model wrote. */
const argumentsText = (value: unknown): string | undefined => {
  if (value === undefined) return '{}';
  if (typeof value === 'string') return value;
  return isRecord(value) ? JSON.stringify(value) : undefined;
};

export interface CallObjectShape {
  nameKey: string;
  /** The keys that may hold the arguments, in order of preference. */
  argumentKeys: readonly string[];
  /** Other keys the format allows beside them (ids, a type tag). */
  extraKeys?: readonly string[];
}

/**
 * A call from one parsed object, only when the object has exactly the
 * format's keys and names an offered tool: anything else is not a call.
 */
export const callFromObject = (
  value: unknown,
  shape: CallObjectShape,
  offered: OfferedTools,
): TextCall | undefined => {
  if (!isRecord(value)) return undefined;
  const allowed = new Set([shape.nameKey, ...shape.argumentKeys, ...(shape.extraKeys ?? [])]);
  if (!Object.keys(value).every(key => allowed.has(key))) return undefined;
  const name = value[shape.nameKey];
  if (typeof name !== 'string' || !offered.has(name)) return undefined;
  if ('type' in value && value.type !== 'function') return undefined;
  const argumentKey = shape.argumentKeys.find(key => key in value);
  const args = argumentsText(argumentKey === undefined ? undefined : value[argumentKey]);
  return args === undefined ? undefined : { name, arguments: args };
};
harden(callFromObject);

/** Calls from a JSON list of call objects; undefined unless every item is one. */
export const callsFromList = (
  value: unknown,
  shape: CallObjectShape,
  offered: OfferedTools,
): TextCall[] | undefined => {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: TextCall[] = [];
  for (const item of value) {
    const call = callFromObject(item, shape, offered);
    if (call === undefined) return undefined;
    calls.push(call);
  }
  return calls;
};
harden(callsFromList);

/** The `{"name": …, "arguments": …}` shape most formats share. */
export const NAME_ARGUMENTS: CallObjectShape = {
  nameKey: 'name',
  argumentKeys: ['arguments', 'parameters'],
};
harden(NAME_ARGUMENTS);

/** Joins the words before and after a call block into the model's text. */
export const joinWords = (...parts: string[]): string =>
  parts
    .map(part => part.trim())
    .filter(part => part !== '')
    .join('\n');
harden(joinWords);
