/**
 * Decides whether what a FaeTool's `schema()` answered can be offered to a
 * model: it must be plain JSON (a bigint, a cycle, a function or a remote
 * object would make every request fail to serialise), of a bounded size
 * (it is sent with every request), and name the function validly. Returns
 * a plain copy with its parameters repaired for every provider
 * (normalise-tool-parameters.ts), or the reason it is refused in words for
 * the log and help().
 */
import type { ToolSchema } from '../../providers/types.js';
import { normaliseToolParameters } from './normalise-tool-parameters.js';

// A schema is sent with every request; beyond this it would crowd out the conversation.
export const MAX_SCHEMA_CHARS = 32_000;
harden(MAX_SCHEMA_CHARS);
const MAX_DEPTH = 64;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export type SchemaCheck = { ok: true; schema: ToolSchema } | { ok: false; reason: string };

type Plain = { ok: true; value: unknown } | { ok: false; reason: string };

const where = (path: string) => (path === '' ? 'the top' : path);
const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** A plain JSON copy of `value`, or what in it is not plain JSON and where. */
export const toPlainJson = (value: unknown, path = '', ancestors: unknown[] = []): Plain => {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return { ok: true, value };
    case 'number':
      return Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, reason: `a non-finite number at ${where(path)}` };
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return { ok: false, reason: `a ${typeof value} at ${where(path)}` };
    default:
      break;
  }
  if (value === null) return { ok: true, value };
  if (ancestors.includes(value)) return { ok: false, reason: `a cycle at ${where(path)}` };
  if (ancestors.length >= MAX_DEPTH)
    return { ok: false, reason: `nesting deeper than ${MAX_DEPTH} at ${where(path)}` };
  const inside = [...ancestors, value];
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const plain = toPlainJson(item, `${path}[${index}]`, inside);
      if (!plain.ok) return plain;
      copy.push(plain.value);
    }
    return { ok: true, value: copy };
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return {
      ok: false,
      reason: `an object that is not plain data (a remote object, promise or error) at ${where(path)}`,
    };
  }
  const copy: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value as object)) {
    if (typeof key === 'symbol')
      return { ok: false, reason: `a symbol-named property at ${where(path)}` };
    const inner = (value as Record<string, unknown>)[key];
    // JSON leaves out properties whose value is undefined; so do we.
    if (inner === undefined) continue;
    const plain = toPlainJson(inner, join(path, key), inside);
    if (!plain.ok) return plain;
    copy[key] = plain.value;
  }
  return { ok: true, value: copy };
};
harden(toPlainJson);

export const checkToolSchema = (raw: unknown): SchemaCheck => {
  const plain = toPlainJson(raw);
  if (!plain.ok) return { ok: false, reason: `its schema is not plain JSON (${plain.reason})` };
  const chars = JSON.stringify(plain.value).length;
  if (chars > MAX_SCHEMA_CHARS)
    return {
      ok: false,
      reason: `its schema is ${chars} characters, more than ${MAX_SCHEMA_CHARS}`,
    };
  const schema = plain.value;
  const fn =
    schema !== null && typeof schema === 'object'
      ? (schema as { function?: unknown }).function
      : undefined;
  if (fn === null || typeof fn !== 'object' || Array.isArray(fn))
    return { ok: false, reason: 'its schema has no "function" object' };
  const { name, description, parameters } = fn as {
    name?: unknown;
    description?: unknown;
    parameters?: unknown;
  };
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    return {
      ok: false,
      reason: `its schema's function.name ${JSON.stringify(name)} is not a valid tool name (letters, digits, _ and -, at most 64)`,
    };
  }
  const params = normaliseToolParameters(parameters);
  if (!params.ok) return params;
  return {
    ok: true,
    schema: harden<ToolSchema>({
      type: 'function',
      function: {
        name,
        description: typeof description === 'string' ? description : '',
        parameters: params.parameters,
      },
    }),
  };
};
harden(checkToolSchema);
