/**
 * Builds a FaeTool exo from one record: its name, description and
 * `parameters` (the JSON schema the model is offered), what a call returns,
 * help notes and `run`. The arguments' names (no undeclared one where
 * `additionalProperties` is false) and the required ones are checked from
 * `parameters` before `run` sees them, and the help's first line is written
 * from them, so each parameter is stated once. The schema and every result
 * are hardened (they cross `E()`), and a failure reaches the caller as a
 * hardened Error carrying only its message.
 */
import { makeExo } from '@endo/exo';
import { Fail, q } from '@endo/errors';
import { FaeToolInterface } from '../../src/agent-tools/fae-tool.js';
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import type { ToolArgs } from './tool-args.js';
import { describeError } from '../../providers/describe-error.js';

export interface FaeToolSpec {
  /** The name the model calls the tool by (the schema's `function.name`). */
  name: string;
  description: string;
  parameters: JsonSchema;
  /** What a call answers (`{ greeting, language }`); with it the help starts with a line written from `parameters`. */
  returns?: string;
  /** The help: what the first line does not say (all of it without `returns`). */
  help: string;
  /** Runs a call whose argument names and required arguments were checked against `parameters`. */
  run: (args: ToolArgs) => unknown;
}

/** The help's first line longer than this puts its `->` on a line of its own. */
const SIGNATURE_WIDTH = 100;

/** `greet({ name, language? }) -> { greeting, language }`, from the parameters: the optional ones marked `?`. */
const signatureOf = (spec: FaeToolSpec, returns: string): string => {
  const required = spec.parameters.required ?? [];
  const names = Object.keys(spec.parameters.properties ?? {}).map(name =>
    required.includes(name) ? name : `${name}?`,
  );
  const call = `${spec.name}({ ${names.join(', ')} })`;
  const line = `${call} -> ${returns}`;
  return line.length <= SIGNATURE_WIDTH ? line : `${call}\n  -> ${returns}`;
};

/** Refuses undeclared argument names (where the schema closes them) and missing required ones, by name. */
const checkArguments = (spec: FaeToolSpec, args: ToolArgs): void => {
  const declared = Object.keys(spec.parameters.properties ?? {});
  if (spec.parameters.additionalProperties === false) {
    const unknown = Object.keys(args).filter(key => !declared.includes(key));
    if (unknown.length > 0)
      throw Error(
        `${spec.name}: unknown argument(s) ${unknown.join(', ')}; expected ${declared.join(', ')}`,
      );
  }
  for (const key of spec.parameters.required ?? [])
    if (args[key] === undefined || args[key] === null)
      throw Error(`${spec.name}: ${key} is required`);
};

/** What the model APIs accept as a function name (OpenAI's rule, the strictest of them). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A malformed spec is the tool author's mistake: refused when the tool is made (a programmer
 * error, thrown with `Fail` and the value quoted), not offered to the model to fail when called.
 */
const assertSpec = (spec: FaeToolSpec): void => {
  (typeof spec.name === 'string' && TOOL_NAME.test(spec.name)) ||
    Fail`FaeTool name must be 1 to 64 letters, digits, _ or -, got ${q(spec.name)}`;
  typeof spec.run === 'function' ||
    Fail`FaeTool ${q(spec.name)}: run must be a function, got ${q(spec.run)}`;
  typeof spec.description === 'string' ||
    Fail`FaeTool ${q(spec.name)}: description must be a string, got ${q(spec.description)}`;
  typeof spec.help === 'string' ||
    Fail`FaeTool ${q(spec.name)}: help must be a string, got ${q(spec.help)}`;
  spec.returns === undefined ||
    typeof spec.returns === 'string' ||
    Fail`FaeTool ${q(spec.name)}: returns must be a string, got ${q(spec.returns)}`;
  (typeof spec.parameters === 'object' &&
    spec.parameters !== null &&
    !Array.isArray(spec.parameters)) ||
    Fail`FaeTool ${q(spec.name)}: parameters must be a JSON schema object, got ${q(spec.parameters)}`;
};

export const makeFaeTool = (spec: FaeToolSpec) => {
  assertSpec(spec);
  const toolSchema: ToolSchema = harden({
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
    },
  });
  const helpText =
    spec.returns === undefined ? spec.help : `${signatureOf(spec, spec.returns)}\n${spec.help}`;
  const run = (args: ToolArgs) => {
    checkArguments(spec, args);
    return spec.run(args);
  };
  return makeExo(spec.name, FaeToolInterface, {
    schema() {
      return toolSchema;
    },
    async execute(args: ToolArgs) {
      try {
        return harden(await run(args));
      } catch (error) {
        // A fresh hardened Error: passable, and free of whatever else the
        // original carried (Node fs errors hold absolute paths in fields).
        const message = describeError(error);
        throw harden(Error(message));
      }
    },
    help() {
      return helpText;
    },
  });
};
harden(makeFaeTool);
