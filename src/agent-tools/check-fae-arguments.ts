/**
 * A FaeTool call's arguments checked against the schema the tool declared
 * and the model was offered (its one schema, normalised by
 * ./normalise-tool-parameters.ts), as pi's `validateToolArguments` checks a
 * tool's `parameters`: every required parameter given, and each given one of
 * a type it declares. Numbers may come as numeric text (tools read "5" as 5,
 * docs/behaviour.md 3.3); nothing is converted, the tool gets the arguments
 * as decoded. Undefined when they fit; else why not, for the model.
 */
import type { JsonSchema } from '../../providers/types.js';
import type { Args } from './read-args.js';

// Never asked of null: a null is either a required parameter missing or an optional one left out.
const kindOf = (value: unknown): string => (Array.isArray(value) ? 'array' : typeof value);

const NAMED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

const numeric = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return undefined;
};

const fits = (type: string, value: unknown): boolean => {
  switch (type) {
    case 'number':
      return numeric(value) !== undefined;
    case 'integer':
      return Number.isInteger(numeric(value));
    default:
      return kindOf(value) === type;
  }
};

export const checkFaeArguments = (parameters: JsonSchema, args: Args): string | undefined => {
  for (const name of parameters.required ?? []) {
    if (args[name] === undefined || args[name] === null) return `${name} is required`;
  }
  for (const [name, schema] of Object.entries(parameters.properties ?? {})) {
    const value = args[name];
    // Not given, or (being optional, since a required one was checked above) given as null, as models write "left out".
    if (value === undefined || value === null || schema.type === undefined) continue;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some(type => fits(type, value))) {
      const wanted = types.map(type => NAMED[type] ?? type).join(' or ');
      return `${name} must be ${wanted}, got ${NAMED[kindOf(value)]}`;
    }
  }
  return undefined;
};
harden(checkFaeArguments);
