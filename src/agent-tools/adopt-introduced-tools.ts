/**
 * At start, FaeTools the host introduced at the top of the guest's
 * directory move into `tools/`. Special names (upper case) are never
 * probed, an existing `tools/` is kept (makeDirectory would empty it) unless
 * the daemon collected it (tools-directory.ts), and a value that is not a
 * FaeTool (or a source of them, tool-sources.ts) stays where it is.
 */
import { E } from '@endo/far';
import { getInterfaceOf } from '@endo/marshal';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { runWithTimeout } from '../lifecycle/run-with-timeout.js';
import { TOOLS_DIRECTORY } from './fae-tool-registry.js';
import { ensureDirectory } from './tools-directory.js';
import type { Introspectable } from '../daemon/remote-objects.js';
import { describeError } from '../../providers/describe-error.js';
import { isSpecialName } from '../daemon/special-names.js';
import { toolShapeOf } from './tool-shape.js';

const PROBE_TIMEOUT_MS = 2_000;

const isToolOrSource = async (value: unknown): Promise<boolean> => {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  if (getInterfaceOf(value) === undefined) return false;
  const names: unknown = await runWithTimeout(
    Promise.resolve(E(value as Introspectable).__getMethodNames__()),
    PROBE_TIMEOUT_MS,
    'Probing an introduced name',
  ).catch(() => undefined);
  // A tool source (e.g. an MCP bridge) offers FaeTools instead of being one: it moves in too.
  return Array.isArray(names) && toolShapeOf(names) !== 'neither';
};

export const adoptIntroducedTools = async (options: {
  powers: PowersRef;
  log: Log;
  /** Names of our own to leave alone (e.g. the agent's memory). */
  reserved: ReadonlySet<string>;
}): Promise<string[]> => {
  const { powers, log, reserved } = options;
  await ensureDirectory(powers, TOOLS_DIRECTORY, log);
  const names = await E(powers).list();
  const candidates = names.filter(
    name => !isSpecialName(name) && name !== TOOLS_DIRECTORY && !reserved.has(name),
  );
  const moved: string[] = [];
  await Promise.all(
    candidates.map(async name => {
      try {
        const value = await E(powers).lookup(name);
        if (!(await isToolOrSource(value))) return;
        if (await E(powers).has(TOOLS_DIRECTORY, name)) {
          log(`introduced tool "${name}" not moved: tools/${name} already exists`);
          return;
        }
        await E(powers).move([name], [TOOLS_DIRECTORY, name]);
        moved.push(name);
      } catch (error) {
        log(`could not check introduced name "${name}": ${describeError(error)}`);
      }
    }),
  );
  return moved.sort();
};
harden(adoptIntroducedTools);
