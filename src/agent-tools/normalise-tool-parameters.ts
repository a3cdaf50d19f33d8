/**
 * Repairs a FaeTool's parameter schema (already plain JSON) into a shape
 * that OpenAI, Anthropic and Ollama all accept, since one schema a service
 * rejects fails the whole request, every tool with it:
 * - the top level is `type: "object"` with `properties` (all three demand an
 *   object; a schema of another type is refused, since its tool could not be
 *   called with the arguments object every provider sends);
 * - no `oneOf`/`anyOf`/`allOf` at the top (Anthropic refuses them there);
 * - at every level, `type` a type name or a list of them, `description` a
 *   string, `required` a list of names of declared properties, `enum` a list
 *   (OpenAI and Anthropic check against the JSON Schema meta-schema; Ollama's
 *   Go decoder refuses any other JSON type for these fields).
 * Anything else is kept as written.
 */
import type { JsonSchema } from '../../providers/types.js';

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export type ParametersCheck = { ok: true; parameters: JsonSchema } | { ok: false; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const validType = (type: unknown): boolean =>
  (typeof type === 'string' && TYPE_NAMES.has(type)) ||
  (Array.isArray(type) &&
    type.length > 0 &&
    type.every(each => typeof each === 'string' && TYPE_NAMES.has(each)));

const normaliseNode = (node: unknown): JsonSchema => {
  if (!isObject(node)) return {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
        if (validType(value)) out.type = value as string | string[];
        break;
      case 'description':
        if (typeof value === 'string') out.description = value;
        break;
      case 'enum':
        if (Array.isArray(value) && value.length > 0)
          out.enum = value as (string | number | boolean | null)[];
        break;
      case 'properties':
        if (isObject(value)) {
          out.properties = Object.fromEntries(
            Object.entries(value).map(([name, inner]) => [name, normaliseNode(inner)]),
          );
        }
        break;
      case 'items':
        if (isObject(value)) out.items = normaliseNode(value);
        else if (Array.isArray(value)) out.items = value.map(normaliseNode);
        break;
      case 'oneOf':
      case 'anyOf':
      case 'allOf':
        if (Array.isArray(value) && value.length > 0) out[key] = value.map(normaliseNode);
        break;
      case 'required':
        break;
      default:
        out[key] = value;
    }
  }
  if (Array.isArray(node.required)) {
    const declared = isObject(out.properties) ? out.properties : {};
    const required = [
      ...new Set(
        node.required.filter(
          (name): name is string => typeof name === 'string' && name in declared,
        ),
      ),
    ];
    if (required.length > 0) out.required = required;
  }
  return out;
};

export const normaliseToolParameters = (parameters: unknown): ParametersCheck => {
  if (parameters === undefined || parameters === null)
    return { ok: true, parameters: { type: 'object', properties: {} } };
  if (!isObject(parameters))
    return { ok: false, reason: 'its parameters are not a JSON Schema object' };
  if (parameters.type !== undefined && parameters.type !== 'object') {
    return {
      ok: false,
      reason: `its parameters are of type ${JSON.stringify(parameters.type)}; a tool's parameters must be an object`,
    };
  }
  const normalised = normaliseNode(parameters);
  delete normalised.oneOf;
  delete normalised.anyOf;
  delete normalised.allOf;
  return {
    ok: true,
    parameters: { ...normalised, type: 'object', properties: normalised.properties ?? {} },
  };
};
harden(normaliseToolParameters);
