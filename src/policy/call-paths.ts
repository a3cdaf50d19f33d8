/**
 * The pet-name paths a built-in call touches, read from its decoded values
 * (src/encoding/decode-call.ts), never from how the model spelt them: the
 * paths it reads (looks up, lists, attaches, sends as an answer) and the
 * paths it writes (creates, overwrites, moves from or onto, removes). The
 * boundary (./store-boundary.ts) judges each. A FaeTool call touches none:
 * it runs in its own vat with no reach into the guest's directory.
 */
import type { DecodedCall } from '../encoding/decode-call.js';

export interface CallPaths {
  reads: readonly (readonly string[])[];
  writes: readonly (readonly string[])[];
  /** A write the tool makes itself under tools/ after its own checks (mail adoptTool). */
  adoptsTool?: string;
}

const NONE: CallPaths = harden({ reads: [], writes: [] });

/** A path from a value the readers made: a path array, a pet name, or "a/b". */
const asPath = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split('/');
  return [];
};

// The readers (src/agent-tools/read-args.ts) give a list (none left out is []) without empty names or paths.
const pathsOf = (value: unknown): string[][] => (value as readonly unknown[]).map(asPath);

/** The paths among these values: an optional one left out is none. */
const given = (...paths: unknown[]): string[][] =>
  paths.map(asPath).filter(path => path.length > 0);

const namesOp = (op: string, values: Readonly<Record<string, unknown>>): CallPaths => {
  const { path, to } = values;
  switch (op) {
    case 'copy':
      return { reads: given(path), writes: given(to) };
    case 'list':
    case 'has':
    case 'lookup':
    case 'identify':
    case 'inspectCapability':
      return { reads: given(path), writes: [] };
    case 'move':
      return { reads: [], writes: given(path, to) };
    case 'remove':
    case 'makeDirectory':
    case 'store':
      return { reads: [], writes: given(path) };
    default:
      return NONE;
  }
};

const mailOp = (op: string, values: Readonly<Record<string, unknown>>): CallPaths => {
  switch (op) {
    case 'adopt':
      return { reads: [], writes: given(values.petName) };
    case 'adoptTool':
      return { reads: [], writes: [], adoptsTool: String(values.toolName) };
    case 'resolve':
      return { reads: given(values.path), writes: [] };
    case 'request':
      return { reads: [], writes: given(values.responseName) };
    default:
      return NONE;
  }
};

export const callPaths = ({ call, values, grouped }: DecodedCall): CallPaths => {
  // The two groups: names and mail (src/agent-tools/tool-groups.ts).
  if (grouped !== undefined)
    return grouped.group === 'names' ? namesOp(grouped.op, values) : mailOp(grouped.op, values);
  switch (call.name) {
    case 'reply':
    case 'send':
      return { reads: pathsOf(values.petNames), writes: [] };
    case 'evaluate':
      return { reads: pathsOf(values.petNamePaths), writes: given(values.resultName) };
    default:
      return NONE;
  }
};
harden(callPaths);
