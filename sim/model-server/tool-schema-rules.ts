/**
 * How the services judge a tool's parameter schema, for the doubles:
 * OpenAI and Anthropic check it against the JSON Schema meta-schema (a
 * `type` that is no type name, a `description` or `required` of the wrong
 * JSON type fail the request), Anthropic also refuses `oneOf`/`anyOf`/`allOf`
 * at the top; Ollama decodes it into Go structs, so a field of another JSON
 * type than its struct says fails the request.
 */
import { isRecord } from './wire-dialect.js';

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** The first place a schema breaks the meta-schema, as `path: reason`, or undefined. */
export const metaSchemaProblem = (schema: unknown, path = ''): string | undefined => {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema))
    return `${path || '(root)'}: ${JSON.stringify(schema)} is not of type 'object', 'boolean'`;
  const { type, description, required, properties, items, enum: values } = schema;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (
      names.length === 0 ||
      !names.every(name => typeof name === 'string' && TYPE_NAMES.has(name))
    ) {
      return `${path || '(root)'}: ${JSON.stringify(type)} is not valid under any of the given schemas`;
    }
  }
  if (description !== undefined && typeof description !== 'string')
    return `${path}.description: ${JSON.stringify(description)} is not of type 'string'`;
  if (
    required !== undefined &&
    (!Array.isArray(required) || !required.every(name => typeof name === 'string'))
  ) {
    return `${path}.required: ${JSON.stringify(required)} is not of type 'array' of 'string'`;
  }
  if (values !== undefined && !Array.isArray(values))
    return `${path}.enum: ${JSON.stringify(values)} is not of type 'array'`;
  if (properties !== undefined) {
    if (!isRecord(properties))
      return `${path}.properties: ${JSON.stringify(properties)} is not of type 'object'`;
    for (const [name, inner] of Object.entries(properties)) {
      const problem = metaSchemaProblem(inner, `${path}.properties.${name}`);
      if (problem !== undefined) return problem;
    }
  }
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    for (const [index, inner] of list.entries()) {
      const problem = metaSchemaProblem(
        inner,
        `${path}.items${Array.isArray(items) ? `[${index}]` : ''}`,
      );
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
};
harden(metaSchemaProblem);

/** Ollama's decoding of `function.parameters` (api.ToolFunction.Parameters): the Go error, or undefined. */
export const ollamaParametersProblem = (parameters: unknown): string | undefined => {
  const cannot = (value: unknown, field: string, into: string) =>
    `json: cannot unmarshal ${jsonType(value) === 'boolean' ? 'bool' : jsonType(value)} into Go struct field ${field} of type ${into}`;
  if (parameters === undefined || parameters === null) return undefined;
  if (!isRecord(parameters))
    return cannot(parameters, 'ToolFunction.tools.function.parameters', 'struct');
  const { type, required, properties } = parameters;
  if (type !== undefined && typeof type !== 'string')
    return cannot(type, 'ToolFunctionParameters.tools.function.parameters.type', 'string');
  if (required !== undefined && required !== null) {
    if (!Array.isArray(required))
      return cannot(
        required,
        'ToolFunctionParameters.tools.function.parameters.required',
        '[]string',
      );
    const odd = required.find(name => typeof name !== 'string');
    if (odd !== undefined)
      return cannot(odd, 'ToolFunctionParameters.tools.function.parameters.required', 'string');
  }
  if (properties !== undefined && properties !== null) {
    if (!isRecord(properties))
      return cannot(
        properties,
        'ToolFunctionParameters.tools.function.parameters.properties',
        'map[string]api.ToolProperty',
      );
    for (const property of Object.values(properties)) {
      if (!isRecord(property))
        return cannot(
          property,
          'ToolFunctionParameters.tools.function.parameters.properties',
          'api.ToolProperty',
        );
      const { type: propertyType, description, enum: values } = property;
      if (
        propertyType !== undefined &&
        typeof propertyType !== 'string' &&
        !(Array.isArray(propertyType) && propertyType.every(name => typeof name === 'string'))
      ) {
        return cannot(
          propertyType,
          'ToolProperty.tools.function.parameters.properties.type',
          'api.PropertyType',
        );
      }
      if (description !== undefined && typeof description !== 'string')
        return cannot(
          description,
          'ToolProperty.tools.function.parameters.properties.description',
          'string',
        );
      if (values !== undefined && values !== null && !Array.isArray(values))
        return cannot(
          values,
          'ToolProperty.tools.function.parameters.properties.enum',
          '[]interface {}',
        );
    }
  }
  return undefined;
};
harden(ollamaParametersProblem);
