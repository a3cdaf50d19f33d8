/**
 * Builds a FaeTool exo from a schema, an implementation and help text. The
 * schema and every result are hardened (they cross `E()`), and a failure
 * reaches the caller as a hardened Error carrying only its message.
 */
import { makeExo } from '@endo/exo';
import { FaeToolInterface } from '../../src/fae-tool.js';
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import type { ToolArgs } from './tool-args.js';

export interface FaeToolSpec {
  /** The name the model calls the tool by (the schema's `function.name`). */
  name: string;
  description: string;
  parameters: JsonSchema;
  help: string;
  run: (args: ToolArgs) => unknown;
}

export const makeFaeTool = (spec: FaeToolSpec) => {
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
        const message = error instanceof Error ? error.message : String(error);
        throw harden(Error(message));
      }
    },
    help() {
      return helpText;
    },
  });
};
harden(makeFaeTool);
