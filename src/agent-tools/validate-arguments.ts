/**
 * A built-in call's arguments checked against the tool's one definition
 * (./builtin-schemas.ts), as pi's `validateToolArguments` checks against a
 * tool's `parameters`: each parameter the tool (or its op) reads is taken
 * under its name or a former one, refused when required and missing, and
 * read by its kind (./tool-parameters.ts) into the form the tool wants. The
 * result is what the tool runs with; an error says what to fix and, for a
 * grouped op, names the op (`move: to is required`).
 */
import { builtinDefinition, readsEntry, type BuiltinCall } from './builtin-schemas.js';
import type { Args } from './read-args.js';
import { given, KINDS, type ParameterKind } from './tool-parameters.js';
import { describeError } from '../../providers/describe-error.js';

/** The values a built-in runs with: each parameter it reads, by its own name; optional ones left out when absent. */
export type ToolValues = Readonly<Record<string, unknown>>;

export const validateArguments = (tool: string, op: string | undefined, args: Args): ToolValues => {
  const definition = builtinDefinition(tool);
  if (definition === undefined) throw new Error(`Unknown tool "${tool}"`);
  const reads = op === undefined ? definition.reads : definition.ops?.[op]?.reads;
  if (reads === undefined) throw new Error(`${tool} has no op ${JSON.stringify(op)}`);
  const values: Record<string, unknown> = {};
  try {
    for (const entry of reads) {
      const { name, optional } = readsEntry(entry);
      // Declared: test/tools-definitions.test.ts holds every read to the definition's parameters.
      const parameter = definition.parameters[name]!;
      const key = [name, ...(parameter.aliases ?? [])].find(each => given(args[each])) ?? name;
      const kind: ParameterKind = KINDS[parameter.kind];
      const present = kind.present ?? given;
      if (!present(args[key])) {
        if (!optional) throw new Error(`${name} is required`);
        if (kind.absent !== undefined) values[name] = kind.absent;
        continue;
      }
      values[name] = kind.read({ [name]: args[key] }, name);
    }
  } catch (error) {
    if (op === undefined) throw error;
    throw new Error(`${op}: ${describeError(error)}`, {
      cause: error,
    });
  }
  return harden(values);
};
harden(validateArguments);

/**
 * A built-in call as it runs: its op and its values, typed by the op's record. The one place
 * the checked values meet their type: validateArguments read each from that record, parameter
 * by parameter, by its kind's reader, which is what `BuiltinArgs` states of it.
 */
export const validatedCall = (tool: string, op: string | undefined, args: Args): BuiltinCall =>
  harden({ op: op ?? tool, values: validateArguments(tool, op, args) } as BuiltinCall);
harden(validatedCall);
