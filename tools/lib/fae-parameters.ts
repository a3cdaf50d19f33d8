/**
 * A FaeTool's parameters stated once: each one yields the JSON schema the
 * model is offered, the type `run` is given (no casts) and the check of a
 * call's value (its type, bounds, choices, emptiness), so a bound is never
 * written in the schema and again in the tool's own code. What a call gives
 * is read into that type before `run` sees it; every refusal names the tool
 * and the argument, so the model can correct itself. Numbers may come as a
 * bigint (the agent decodes "+5" as 5n) or as numeric text, as models write
 * them (docs/behaviour.md 3.3).
 */
import type { JsonSchema } from '../../providers/types.js';
import { describeType, toNumber, type ToolArgs } from './tool-args.js';
import { checkArgumentNames } from '../../src/agent-tools/check-fae-arguments.js';

/** One parameter: its schema, whether a call may leave it out, and how a given value is read. */
export interface FaeParameter<T> {
  readonly schema: JsonSchema;
  readonly optional: boolean;
  /** Reads a value the call gave (never undefined or null), or throws why not. */
  read(where: string, value: unknown): T;
}

const stringOf = (where: string, value: unknown): string => {
  if (typeof value !== 'string')
    throw Error(`${where} must be a string, got ${describeType(value)}`);
  return value;
};

/**
 * A string; refused when empty unless `allowEmpty` (a file's content). `trimmed`: read without
 * the spaces around it and refused when nothing else is left, which its schema states as a
 * pattern (some character not a space), so the model is told the bound it is held to.
 */
export const text = (
  description: string,
  { allowEmpty = false, trimmed = false }: { allowEmpty?: boolean; trimmed?: boolean } = {},
): FaeParameter<string> => ({
  schema: harden({
    type: 'string',
    description,
    ...(allowEmpty ? {} : { minLength: 1 }),
    ...(trimmed ? { pattern: '\\S' } : {}),
  }),
  optional: false,
  read: (where, value) => {
    const read = trimmed ? stringOf(where, value).trim() : stringOf(where, value);
    if (trimmed && read === '') throw Error(`${where} must not be blank`);
    if (!allowEmpty && read === '') throw Error(`${where} must not be empty`);
    return read;
  },
});
harden(text);

/**
 * One of `choices`, offered as the schema's `enum`; read whatever its case and
 * surrounding spaces (models write "Add"), and from any of `aliases` (other
 * words for a choice, not offered: "French" for `fr`), as the choice itself.
 */
export const choice = <C extends string>(
  description: string,
  choices: readonly C[],
  aliases: Readonly<Record<string, C>> = {},
): FaeParameter<C> => ({
  schema: harden({ type: 'string', description, enum: [...choices] }),
  optional: false,
  read: (where, value) => {
    const wanted = stringOf(where, value).trim().toLowerCase();
    const found =
      choices.find(each => each.toLowerCase() === wanted) ??
      Object.entries(aliases).find(([alias]) => alias.toLowerCase() === wanted)?.[1];
    if (found === undefined)
      throw Error(`${where} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
    return found;
  },
});
harden(choice);

/** A whole number within [min, max]. */
export const integer = (
  description: string,
  { min, max = Number.MAX_SAFE_INTEGER }: { min: number; max?: number },
): FaeParameter<number> => ({
  schema: harden({
    type: 'integer',
    description,
    minimum: min,
    ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }),
  }),
  optional: false,
  read: (where, value) => {
    const number = toNumber(value);
    if (number === undefined || !Number.isInteger(number))
      throw Error(`${where} must be an integer, got ${describeType(value)}`);
    if (number < min || number > max)
      throw Error(`${where} must be between ${min} and ${max}, got ${number}`);
    return number;
  },
});
harden(integer);

/** A finite number, exact: a bigint beyond what a number holds exactly is refused. */
export const finiteNumber = (description: string): FaeParameter<number> => ({
  schema: harden({ type: 'number', description }),
  optional: false,
  read: (where, value) => {
    const number = toNumber(value);
    if (number === undefined) throw Error(`${where} must be a number, got ${describeType(value)}`);
    if (!Number.isFinite(number))
      throw Error(`${where} must be a finite number, got ${String(number)}`);
    if (typeof value === 'bigint' && !Number.isSafeInteger(number))
      throw Error(`${where} is too large to compute exactly`);
    return number;
  },
});
harden(finiteNumber);

/** A command: a non-empty string, or a non-empty list of strings whose first names a program. */
export const commandLine = (
  description: string,
  forms: { line: string; words: string },
): FaeParameter<string | string[]> => ({
  schema: harden({
    anyOf: [
      { type: 'string', minLength: 1, description: forms.line },
      { type: 'array', items: { type: 'string' }, minItems: 1, description: forms.words },
    ],
    description,
  }),
  optional: false,
  read: (where, value) => {
    if (typeof value === 'string') {
      if (value.trim() === '') throw Error(`${where} must not be empty`);
      return value;
    }
    if (!Array.isArray(value))
      throw Error(`${where} must be a string or an array of strings, got ${describeType(value)}`);
    if (value.length === 0) throw Error(`${where} array must not be empty`);
    const words = value.map((word: unknown, index) => stringOf(`${where}[${index}]`, word));
    if (words[0] === '') throw Error(`${where}[0] must name a program`);
    return words;
  },
});
harden(commandLine);

/** The same parameter, which a call may leave out (undefined, or null as models write "left out"). */
export const optional = <T>(parameter: FaeParameter<T>): FaeParameter<T | undefined> => ({
  ...parameter,
  optional: true,
});
harden(optional);

type ParameterShape = Readonly<Record<string, FaeParameter<unknown>>>;

/** What `run` is given: each parameter's value by its name, an optional one possibly undefined. */
export type ValuesOf<S extends ParameterShape> = {
  readonly [K in keyof S]: S[K] extends FaeParameter<infer T> ? T : never;
};

/** A tool's parameters: the schema offered, and the reading of a call's arguments into `run`'s values. */
export interface FaeParameters<V> {
  readonly schema: JsonSchema;
  read(toolName: string, args: ToolArgs): V;
}

/** The parameters of a tool, from one record: no argument besides these, the required ones given. */
export const parameters = <S extends ParameterShape>(shape: S): FaeParameters<ValuesOf<S>> => {
  const names = Object.keys(shape);
  const schema: JsonSchema = harden({
    type: 'object',
    properties: Object.fromEntries(names.map(name => [name, shape[name]!.schema])),
    required: names.filter(name => !shape[name]!.optional),
    additionalProperties: false,
  });
  const read = (toolName: string, args: ToolArgs): ValuesOf<S> => {
    // Names and required ones by the agent's one check of names, from the schema these yield.
    const misnamed = checkArgumentNames(schema, args);
    if (misnamed !== undefined) throw Error(`${toolName}: ${misnamed}`);
    const values: Record<string, unknown> = {};
    for (const name of names) {
      const parameter = shape[name]!;
      const value = args[name];
      // Left out (a required one was refused above).
      if (value === undefined || value === null) continue;
      values[name] = parameter.read(`${toolName}: ${name}`, value);
    }
    return values as ValuesOf<S>;
  };
  return harden({ schema, read });
};
harden(parameters);
