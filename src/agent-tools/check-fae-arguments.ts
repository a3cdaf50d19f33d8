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

/**
 * The names of a call's arguments against the schema: none it does not declare where it closes
 * them (`additionalProperties: false`), and every required one given (null is "left out"). The
 * one check of names, here and in the caplets of `tools/` (tools/lib/make-fae-tool.ts,
 * tools/lib/fae-parameters.ts). Undefined when they fit; else why not.
 */
export const checkArgumentNames = (parameters: JsonSchema, args: Args): string | undefined => {
  const declared = Object.keys(parameters.properties ?? {});
  if (parameters.additionalProperties === false) {
    const unknown = Object.keys(args).filter(key => !declared.includes(key));
    if (unknown.length > 0)
      return `unknown argument(s) ${unknown.join(', ')}; expected ${declared.join(', ')}`;
  }
  for (const name of parameters.required ?? []) {
    if (args[name] === undefined || args[name] === null) return `${name} is required`;
  }
  return undefined;
};
harden(checkArgumentNames);

export const checkFaeArguments = (parameters: JsonSchema, args: Args): string | undefined => {
  const misnamed = checkArgumentNames(parameters, args);
  if (misnamed !== undefined) return misnamed;
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
