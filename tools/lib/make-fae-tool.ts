/**
 * Builds a FaeTool exo from one record: its name, description, `parameters`,
 * what a call returns, help notes and `run`. The parameters are stated once
 * (./fae-parameters.ts): they yield the JSON schema the model is offered, the
 * check of each call's arguments (names, required ones, types, bounds,
 * choices) and the typed values `run` is given, and the help's first line is
 * written from them. A schema from elsewhere (an MCP server's) is checked by
 * its names and required ones, the rest being its server's. The schema and
 * every result are hardened (they cross `E()`), and a failure reaches the
 * caller as a hardened Error carrying only its message. Every tool made here
 * can be stopped part-way (behaviour 6.7): besides upstream's `execute(args)`
 * it answers `executeUntil(args, stopped)`, and `run` gets an AbortSignal that
 * aborts when `stopped` settles, either way.
 */
import { makeExo } from '@endo/exo';
import { Fail, q } from '@endo/errors';
import { StoppableFaeToolInterface, type FaeTool } from '../../src/agent-tools/fae-tool.js';
import { checkArgumentNames } from '../../src/agent-tools/check-fae-arguments.js';
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import type { ToolArgs } from './tool-args.js';
import type { FaeParameters } from './fae-parameters.js';
import { describeError } from '../../providers/describe-error.js';

interface FaeToolBase {
  /** The name the model calls the tool by (the schema's `function.name`). */
  name: string;
  description: string;
  /** What a call answers (`{ greeting, language }`); with it the help starts with a line written from the parameters. */
  returns?: string;
  /** The help: what the first line does not say (all of it without `returns`). */
  help: string;
}

/** A tool whose parameters are stated once (./fae-parameters.ts): `run` gets their values, read and checked. */
interface TypedFaeToolSpec<V> extends FaeToolBase {
  parameters: FaeParameters<V>;
  /** `stop` aborts when the caller stops waiting (./make-fae-tool.ts's `executeUntil`); a call may ignore it. */
  run(values: V, stop: AbortSignal): unknown;
}

/** A tool whose schema comes from elsewhere (an MCP server's): names and required ones checked, the rest is the tool's. */
export interface FaeToolSpec extends FaeToolBase {
  parameters: JsonSchema;
  /** Runs a call whose argument names and required arguments were checked against `parameters`; `stop` as above. */
  run(args: ToolArgs, stop: AbortSignal): unknown;
}

/** The help's first line longer than this puts its `->` on a line of its own. */
const SIGNATURE_WIDTH = 100;

/** `greet({ name, language? }) -> { greeting, language }`, from the parameters: the optional ones marked `?`. */
const signatureOf = (toolName: string, schema: JsonSchema, returns: string): string => {
  const required = schema.required ?? [];
  const names = Object.keys(schema.properties ?? {}).map(name =>
    required.includes(name) ? name : `${name}?`,
  );
  const call = `${toolName}({ ${names.join(', ')} })`;
  const line = `${call} -> ${returns}`;
  return line.length <= SIGNATURE_WIDTH ? line : `${call}\n  -> ${returns}`;
};

/** A schema from elsewhere, read as parameters: undeclared names (where it closes them) and missing required ones refused, by name (the agent's one check of names). */
const schemaParameters = (schema: JsonSchema): FaeParameters<ToolArgs> => ({
  schema,
  read: (toolName, args) => {
    const misnamed = checkArgumentNames(schema, args);
    if (misnamed !== undefined) throw Error(`${toolName}: ${misnamed}`);
    return args;
  },
});

/** What the model APIs accept as a function name (OpenAI's rule, the strictest of them). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A malformed spec is the tool author's mistake: refused when the tool is made (a programmer
 * error, thrown with `Fail` and the value quoted), not offered to the model to fail when called.
 */
const assertSpec = (spec: FaeToolSpec | TypedFaeToolSpec<unknown>): void => {
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

/** Stated parameters (./fae-parameters.ts), or a schema from elsewhere read by names alone. */
const isStated = (
  spec: FaeToolSpec | TypedFaeToolSpec<unknown>,
): spec is TypedFaeToolSpec<unknown> => typeof spec.parameters.read === 'function';

/** Stated parameters (./fae-parameters.ts), or a schema from elsewhere read by its names alone. */
const statedSpec = (spec: FaeToolSpec | TypedFaeToolSpec<unknown>): TypedFaeToolSpec<unknown> =>
  isStated(spec) ? spec : { ...spec, parameters: schemaParameters(spec.parameters) };

/** Stated parameters give `run` their values' types; a schema from elsewhere gives it the arguments. */
interface MakeFaeTool {
  <V>(spec: TypedFaeToolSpec<V>): FaeTool;
  (spec: FaeToolSpec): FaeTool;
}

export const makeFaeTool: MakeFaeTool = (
  made: FaeToolSpec | TypedFaeToolSpec<unknown>,
): FaeTool => {
  assertSpec(made);
  const spec = statedSpec(made);
  const { parameters } = spec;
  const toolSchema: ToolSchema = harden({
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: parameters.schema,
    },
  });
  const helpText =
    spec.returns === undefined
      ? spec.help
      : `${signatureOf(spec.name, parameters.schema, spec.returns)}\n${spec.help}`;
  const run = async (args: ToolArgs, stop: AbortSignal) => {
    try {
      return harden(await spec.run(parameters.read(spec.name, args), stop));
    } catch (error) {
      // A fresh hardened Error: passable, and free of whatever else the
      // original carried (Node fs errors hold absolute paths in fields).
      const message = describeError(error);
      throw harden(Error(message));
    }
  };
  return makeExo(spec.name, StoppableFaeToolInterface, {
    schema() {
      return toolSchema;
    },
    execute(args: ToolArgs) {
      // Upstream's call: nothing stops it but its own bounds.
      return run(args, new AbortController().signal);
    },
    executeUntil(args: ToolArgs, stopped: Promise<unknown>) {
      const stop = new AbortController();
      // Settled either way: a rejection is how a caller that went away (its connection lost) stops it.
      const abort = (why: unknown) =>
        stop.abort(typeof why === 'string' ? why : 'the caller stopped waiting');
      void Promise.resolve(stopped).then(abort, abort);
      return run(args, stop.signal);
    },
    help() {
      return helpText;
    },
  });
};
harden(makeFaeTool);
