/**
 * The `names` tool's ops: the guest's pet-name directory (list, has,
 * lookup, identify, inspectCapability, remove, move, copy, makeDirectory,
 * store) and the daemon's help on the guest's powers.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { Introspectable } from '../../daemon/remote-objects.js';
import type { BuiltinContext } from '../builtin-context.js';
import type { ToolValues } from '../validate-arguments.js';
import { describeError } from '../../../providers/describe-error.js';
import { isOwnName } from '../../policy/own-names.js';

const inspectCapability = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
  const capability = (await E(context.powers).lookup(path)) as Introspectable;
  const [help, methods] = await Promise.all([
    Promise.resolve(E(capability).help()).catch(
      (error: unknown) => `(no help: ${describeError(error)})`,
    ),
    Promise.resolve(E(capability).__getMethodNames__()).catch(() => []),
  ]);
  return harden({
    help,
    methods: Array.isArray(methods)
      ? methods.filter(name => typeof name === 'string' && !name.startsWith('__'))
      : [],
  });
};

const makeDirectory = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
  const powers = E(context.powers);
  // The daemon's makeDirectory replaces an existing name with a new, empty directory.
  if (await powers.has(...path)) {
    throw new Error(
      `${path.join('/')} already exists; makeDirectory would replace it with an empty directory`,
    );
  }
  await powers.makeDirectory(path);
  return harden({ made: path });
};

/** Runs an op with the values its definition read (../builtin-schemas.ts, ../validate-arguments.ts). */
export const runNamesOp = async (
  op: string,
  values: ToolValues,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  const path = values.path as string[];
  const to = values.to as string[];
  switch (op) {
    case 'list': {
      const names = await powers.list(...path);
      // The agent's own names are not the model's to see (behaviour 9.6).
      if (context.isOwnDirectory === undefined || !(await context.isOwnDirectory(path)))
        return names;
      return harden(names.filter(name => !isOwnName(name)));
    }
    case 'has':
      return powers.has(...path);
    case 'lookup':
      return powers.lookup(path);
    case 'identify':
      return powers.identify(...path);
    case 'inspectCapability':
      return inspectCapability(context, path);
    case 'remove':
      await powers.remove(...path);
      return harden({ removed: path });
    case 'move':
      await powers.move(path, to);
      return harden({ moved: path, to });
    case 'copy':
      await powers.copy(path, to);
      return harden({ copied: path, to });
    case 'makeDirectory':
      return makeDirectory(context, path);
    case 'store':
      await powers.storeValue(harden(values.value), path);
      return harden({ stored: path });
    case 'help':
      return powers.help(values.methodName as string | undefined);
    default:
      // Unreachable: the op was checked against TOOL_GROUPS (../tool-groups.ts) before it got here.
      throw makeError(X`names has no op ${q(op)}`);
  }
};
harden(runNamesOp);
