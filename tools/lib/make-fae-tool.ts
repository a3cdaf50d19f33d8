/**
 * Builds a FaeTool exo from a schema, an implementation and help text. The
 * schema and every result are hardened (they cross `E()`), and a failure
 * reaches the caller as a hardened Error carrying only its message.
 */
import { makeExo } from '@endo/exo';
import { Fail, q } from '@endo/errors';
import { FaeToolInterface } from '../../src/tools/fae-tool.js';
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import type { ToolArgs } from './tool-args.js';
import { describeError } from '../../providers/describe-error.js';

export interface FaeToolSpec {
  /** The name the model calls the tool by (the schema's `function.name`). */
  name: string;
  description: string;
  parameters: JsonSchema;
  help: string;
  run: (args: ToolArgs) => unknown;
}

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
  const helpText = spec.help;
  const run = spec.run;
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
