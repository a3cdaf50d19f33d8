/**
 * The pet-name paths a built-in call touches, as its op's record states
 * them once (src/agent-tools/builtin-schemas.ts, `touches`), read from its
 * decoded values (src/agent-tools/decode-call.ts), never from how the model
 * spelt them: the paths it reads (looks up, lists), writes (creates,
 * overwrites, moves from or onto, removes) and gives (attaches, answers a
 * request with, endows code with, grants a helper). The boundary
 * (./store-boundary.ts) judges each. A FaeTool call touches none: it runs
 * in its own vat with no reach into the guest's directory.
 */
import type { DecodedCall } from '../agent-tools/decode-call.js';
import { builtinDefinition, opRecord } from '../agent-tools/builtin-schemas.js';
import { isBudgetItem } from '../agent-tools/budget-items.js';

export interface CallPaths {
  /** Every path whose value the call reads, those it gives included. */
  reads: readonly (readonly string[])[];
  writes: readonly (readonly string[])[];
  /** The paths whose values it hands to someone. */
  gives: readonly (readonly string[])[];
  /** A write the tool makes itself under tools/ after its own checks (mail adoptTool). */
  adoptsTool?: string;
}

const NONE: CallPaths = harden({ reads: [], writes: [], gives: [] });

/** A path from a value the readers made: a path array, or "a/b"; anything else is none. */
const asPath = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split('/');
  return [];
};

const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * The paths a parameter's value holds: a list of them for the list kinds (of a grant, its entries
 * that are no budget items: "2 calls" is no name, and the daemon is never asked about it), else
 * one (none when left out).
 */
const pathsIn = (kind: string | undefined, value: unknown): string[][] => {
  // The readers (src/agent-tools/read-args.ts) give a list (none left out is []) without empty names or paths.
  const paths =
    kind === 'grant'
      ? listed(value)
          .filter(item => !(typeof item === 'string' && isBudgetItem(item)))
          .map(asPath)
      : kind === 'paths' || kind === 'names'
        ? listed(value).map(asPath)
        : [asPath(value)];
  return paths.filter(path => path.length > 0);
};

export const callPaths = ({ call, values, grouped }: DecodedCall): CallPaths => {
  const tool = grouped?.group ?? call.name;
  const record = opRecord(tool, grouped?.op);
  if (record === undefined) return NONE;
  const parameters = builtinDefinition(tool)?.parameters ?? {};
  const { reads = [], writes = [], gives = [], adoptsTool } = record.touches;
  const pathsOf = (names: readonly string[]) =>
    names.flatMap(name => pathsIn(parameters[name]?.kind, values[name]));
  const given = pathsOf(gives);
  return {
    reads: [...pathsOf(reads), ...given],
    writes: pathsOf(writes),
    gives: given,
    ...(adoptsTool === undefined ? {} : { adoptsTool: String(values[adoptsTool]) }),
  };
};
harden(callPaths);
