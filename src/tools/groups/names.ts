/**
 * The `names` tool's ops: the guest's pet-name directory (list, has,
 * lookup, identify, inspectCapability, remove, move, copy, makeDirectory,
 * store) and the daemon's help on the guest's powers.
 */
import { E } from '@endo/far';
import type { Introspectable } from '../../remote-objects.js';
import type { BuiltinContext } from '../builtin-context.js';
import {
  readOptionalPath,
  readOptionalString,
  readPassable,
  readPath,
  type Args,
} from '../read-args.js';
import { keyIn } from './arg-keys.js';

const pathOf = (args: Args): string[] =>
  readPath(args, keyIn(args, 'path', 'petNamePath', 'fromPath', 'petName'));
const toOf = (args: Args): string[] => readPath(args, keyIn(args, 'to', 'toPath'));

const inspectCapability = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
  const capability = (await E(context.powers).lookup(path)) as Introspectable;
  const [help, methods] = await Promise.all([
    Promise.resolve(E(capability).help()).catch(
      (error: unknown) => `(no help: ${error instanceof Error ? error.message : String(error)})`,
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

export const runNamesOp = async (
  op: string,
  args: Args,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  switch (op) {
    case 'list':
      return powers.list(...readOptionalPath(args, keyIn(args, 'path', 'petNamePath')));
    case 'has':
      return powers.has(...pathOf(args));
    case 'lookup':
      return powers.lookup(pathOf(args));
    case 'identify':
      return powers.identify(...pathOf(args));
    case 'inspectCapability':
      return inspectCapability(context, pathOf(args));
    case 'remove': {
      const path = pathOf(args);
      await powers.remove(...path);
      return harden({ removed: path });
    }
    case 'move': {
      const [from, to] = [pathOf(args), toOf(args)];
      await powers.move(from, to);
      return harden({ moved: from, to });
    }
    case 'copy': {
      const [from, to] = [pathOf(args), toOf(args)];
      await powers.copy(from, to);
      return harden({ copied: from, to });
    }
    case 'makeDirectory':
      return makeDirectory(context, pathOf(args));
    case 'store': {
      const value = readPassable(args, 'value');
      const path = pathOf(args);
      await powers.storeValue(harden(value), path);
      return harden({ stored: path });
    }
    case 'help':
      return powers.help(readOptionalString(args, 'methodName'));
    default:
      throw new Error(`names has no op "${op}"`);
  }
};
