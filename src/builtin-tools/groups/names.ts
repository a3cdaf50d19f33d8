/**
 * The `names` tool's ops that are more than one daemon call: `list`
 * without the agent's own names, `inspectCapability`, `makeDirectory` that
 * never replaces. The switch over every op is ../dispatch-builtin-tool.ts.
 */
import { E } from '@endo/far';
import type { Introspectable } from '../../daemon/remote-objects.js';
import type { BuiltinContext } from '../builtin-context.js';
import { describeError } from '../../../providers/describe-error.js';
import { isOwnName } from '../../daemon/own-names.js';

export const inspectCapability = async (
  context: BuiltinContext,
  path: string[],
): Promise<unknown> => {
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
harden(inspectCapability);

export const makeDirectory = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
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
harden(makeDirectory);

/** `list`: the names at a path, without the agent's own names in its own directory (behaviour 9.6). */
export const listNames = async (context: BuiltinContext, path: string[]): Promise<unknown> => {
  const names = await E(context.powers).list(...path);
  if (context.isOwnDirectory === undefined || !(await context.isOwnDirectory(path))) return names;
  return harden(names.filter(name => !isOwnName(name)));
};
harden(listNames);
