/**
 * The kinds of parameter a built-in tool takes, each once: the JSON Schema
 * the model is offered for it and the reader that validates what the model
 * wrote and gives the tool the form it wants (./read-args.ts). A tool's
 * parameters (./builtin-schemas.ts) are named kinds, so the schema that is
 * advertised and the check that is run cannot drift apart.
 */
import type { JsonSchema } from '../../providers/types.js';
import {
  readMessageNumber,
  readNumber,
  readPassable,
  readPath,
  readPathList,
  readString,
  readStringList,
  type Args,
} from './read-args.js';

export interface ParameterKind {
  /** What the model is told the parameter is (every token is paid on every request). */
  schema: JsonSchema;
  /** The value for the tool, from the arguments under `name`; throws, for the model, when it will not do. */
  read: (args: Args, name: string) => unknown;
  /** Whether a value was given at all (else: required, or `absent`); by default not undefined, null or "". */
  present?: (value: unknown) => boolean;
  /** What an optional parameter left out stands for (else it is left out). */
  absent?: unknown;
}

export const given = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '';
harden(given);

const listOfNames: JsonSchema = { type: 'array', items: { type: 'string' } };

export const KINDS = harden({
  /** Free text, taken as written (a number stands for its text). */
  text: { schema: { type: 'string' }, read: readString },
  /** A pet-name path: "dir/name" (taught in the system prompt) or an array of names. */
  path: {
    schema: { type: 'string' },
    read: readPath,
    // An empty path is no path (`list` of the whole directory).
    present: value => given(value) && !(Array.isArray(value) && value.length === 0),
    absent: [],
  },
  /** A list of strings; a lone string is a list of one; none when left out. */
  names: { schema: listOfNames, read: readStringList, absent: [] },
  /** A helper's grant: tool and pet names, and budget items (./budget-items.ts), none of them paths; none when left out. */
  grant: { schema: listOfNames, read: readStringList, absent: [] },
  /** Pet names or paths of values to attach; none when left out. */
  paths: { schema: listOfNames, read: readPathList, absent: [] },
  /** A message number: 5, "5" or "+5". */
  messageNumber: { schema: { type: 'integer' }, read: readMessageNumber },
  /** A number of seconds and the like. */
  number: { schema: { type: 'number' }, read: readNumber },
  /** A passable value, read SmallCaps-first (behaviour 3.3). */
  value: {
    schema: { description: 'Read as SmallCaps: "+5" is the bigint 5, "!+5" the text +5.' },
    read: readPassable,
    // null and "" are values to store.
    present: value => value !== undefined,
  },
} satisfies Record<string, ParameterKind>);
harden(KINDS);

export type KindName = keyof typeof KINDS;
