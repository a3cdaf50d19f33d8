/**
 * What the agent's worker was handed stays named while the worker lives
 * (docs/behaviour.md 9.13). The daemon remembers which formulas each
 * worker's connection was handed (a directory made, a capability looked
 * up, an evaluation's result) and, when one of them is collected because
 * no pet name path reaches it any more, ends that worker with every caplet
 * on it: "Formula … became unreachable by any pet name path and was
 * collected" (residence.js, disconnectRetainersHolding, at f0a46042a and
 * newest; the worker's connection never lets an import go). So a turn that
 * made a directory `x` and then wrote another value over `x` stopped the
 * agent. Every name a turn can remove or overwrite is one of many ways
 * (remove, move, copy, store, adopt, evaluate's and request's result
 * names, a party's or a helper's space, an alias, the HOST's own CLI), so
 * the guard is not on them: the powers every part of the agent reaches the
 * daemon through are these, which, whenever the daemon hands the worker a
 * reference by a name (`lookup`, `makeDirectory`, a result name), first
 * name its formula in the agent's own state directory (`agent-state/`, out
 * of every tool's reach, ./own-names.ts), as `held-<formula number>`.
 * Whatever then happens to the other names, the formula stays reachable and
 * the worker serves on.
 *
 * Those names outlive nothing they protect: the worker process remembers
 * which it wrote (as it remembers failed starts), and an agent started in a
 * worker that did not write one (a daemon restart, a worker ended) lets it
 * go at start, since no connection holds that reference any more.
 *
 * Holding makes no formula, only names one the worker was just handed, in a
 * directory that is there: nothing a collection could take before it is
 * named. Earlier releases held in a directory of its own,
 * `agent-state/held/`, which at f0a46042a was collected before it was named
 * (every guest or host call ends with a collection, and setup's
 * `makeDirectory([guest, 'agent-state', 'held'])` walks through the guest's
 * `lookup`, one such call), so `held` named a formula whose file was gone
 * ("No reference exists at path …/formulas/…") and every hold failed. Made
 * again by the worker, it could be collected again as it was made, and a
 * directory the worker was handed and that is collected ends the worker.
 * That directory, readable or not, is let go at start.
 */
import { Far, passStyleOf } from '@endo/far';
import type { Log } from '../log/log.js';
import { farOf } from './far-ref.js';
import { HELD_PREFIX, isHeldName, OLD_HELD_PATH, STATE_DIRECTORY } from './own-names.js';
import { describeError } from '../../providers/describe-error.js';

/** The names this worker process wrote for what it was handed, per agent name. */
export type HeldMemory = Map<string, Set<string>>;

export const makeHeldMemory = (): HeldMemory => new Map<string, Set<string>>();
harden(makeHeldMemory);

/** The daemon's worker process: one memory for the agents it runs (an in-process host passes its own). */
export const workerHeld: HeldMemory = makeHeldMemory();
harden(workerHeld);

// A pet name is at most 128 characters (pet-name.js, both daemons): 64 hex digits of the number
// (256 bits, the whole number on the newest daemon) tell formulas apart.
const NUMBER_DIGITS = 64;

/** The name a formula is held under, from its id (`<number>:<node>`); undefined for what is no formula id. */
export const heldNameOf = (id: unknown): string | undefined => {
  if (typeof id !== 'string') return undefined;
  const [number = ''] = id.split(':');
  const digits = number.toLowerCase().slice(0, NUMBER_DIGITS);
  return /^[0-9a-f]+$/.test(digits) ? `${HELD_PREFIX}${digits}` : undefined;
};
harden(heldNameOf);

/** Whether a value the daemon returned carries a reference (a remotable or a promise, at any depth). */
export const carriesReference = (value: unknown): boolean => {
  let style: string;
  try {
    style = passStyleOf(value);
  } catch {
    // Not passable as it stands: held, to be safe.
    return true;
  }
  switch (style) {
    case 'remotable':
    case 'promise':
      return true;
    case 'copyArray':
      return (value as unknown[]).some(carriesReference);
    case 'copyRecord':
      return Object.values(value as Record<string, unknown>).some(carriesReference);
    case 'tagged':
      return carriesReference((value as { payload: unknown }).payload);
    default:
      return false;
  }
};
harden(carriesReference);

type NameOrPath = string | readonly string[];
const asPath = (nameOrPath: unknown): string[] =>
  Array.isArray(nameOrPath) ? nameOrPath.map(String) : [String(nameOrPath)];

/** Where each method that names what it hands over takes that name (its argument's index). */
const RESULT_NAME_AT: Readonly<Record<string, number>> = harden({
  lookup: 0,
  makeDirectory: 0,
  evaluate: 4,
  request: 2,
});

type Method = (...args: unknown[]) => Promise<unknown>;

/** A path the worker's references need no name for: a special name (the guest's own) or the state directory. */
const needsNoHold = (path: readonly string[]): boolean =>
  path[0] === STATE_DIRECTORY || (path.length === 1 && !/^[a-z0-9][a-z0-9-]*$/.test(path[0] ?? ''));

/**
 * The guest's powers, each method passed on as it is, those that hand the
 * worker a reference by a name holding its formula first. `methods` are the
 * powers' own (./generation.ts read them); without them (powers that did
 * not load), the powers are given back as they are.
 */
export const holdWhatIsHanded = async (options: {
  powers: unknown;
  methods: readonly string[];
  name: string;
  memory: HeldMemory;
  log: Log;
  /** Makes the state directory when it is missing (as the memory's place does). */
  ensureStateDirectory: () => Promise<void>;
  /**
   * Told of each call the daemon answered, once it did: every part reaches the daemon through
   * these powers, so the agent learns here which dismissals went through (../memory/handled-keys.ts).
   */
  answered?: (method: string, args: readonly unknown[]) => void;
}): Promise<unknown> => {
  const { powers, methods, name, memory, log, ensureStateDirectory, answered } = options;
  if (!methods.includes('lookup') || !methods.includes('identify')) return powers;
  /** One method of the powers themselves, called through their one E() proxy (./far-ref.ts). */
  const far = farOf(powers as Record<string, Method>);
  const call = (method: string, ...args: unknown[]): Promise<unknown> =>
    (far[method] as Method)(...args);
  const writeMethod = methods.includes('storeIdentifier') ? 'storeIdentifier' : 'write';
  const ours = memory.get(name) ?? new Set<string>();
  memory.set(name, ours);

  // Names an earlier worker wrote: no connection holds their formulas now, so they go.
  let stateMade = (await call('has', STATE_DIRECTORY)) === true;
  if (stateMade) {
    // Best effort: a name that cannot be let go must not keep the agent from starting.
    await (async () => {
      if ((await call('has', ...OLD_HELD_PATH)) === true) {
        await call('remove', ...OLD_HELD_PATH);
        log(`let go of ${OLD_HELD_PATH.join('/')}/, where an earlier release held names`);
      }
      const names = (await call('list', STATE_DIRECTORY)) as string[];
      const stale = names.filter(held => isHeldName(held) && !ours.has(held));
      let gone = 0;
      for (const held of stale) {
        // eslint-disable-next-line no-await-in-loop
        await call('remove', STATE_DIRECTORY, held).then(
          () => {
            gone += 1;
          },
          (error: unknown) =>
            log(`could not let go of ${STATE_DIRECTORY}/${held}: ${describeError(error)}`),
        );
      }
      if (gone > 0) log(`let go of ${gone} name(s) in ${STATE_DIRECTORY}/ an earlier worker held`);
    })().catch((error: unknown) =>
      log(`could not let go of what an earlier worker held: ${describeError(error)}`),
    );
  }

  /** Names the formula at `path` in the state directory, once per worker. */
  const hold = async (path: string[]) => {
    const id = await call('identify', ...path);
    const held = heldNameOf(id);
    if (held === undefined || ours.has(held)) return;
    // Remembered before it is written: a start meanwhile keeps it rather than lets it go.
    ours.add(held);
    try {
      if (!stateMade) {
        await ensureStateDirectory();
        stateMade = true;
      }
      await call(writeMethod, [STATE_DIRECTORY, held], id);
    } catch (error) {
      // Not held: the next hand-over of this formula tries again.
      ours.delete(held);
      throw error;
    }
  };

  const passOn =
    (method: string) =>
    async (...args: unknown[]): Promise<unknown> => {
      const result = await call(method, ...args);
      answered?.(method, args);
      const at = RESULT_NAME_AT[method];
      const resultName = at === undefined ? undefined : (args[at] as NameOrPath | undefined);
      if (resultName === undefined || !carriesReference(result)) return result;
      const path = asPath(resultName);
      if (needsNoHold(path)) return result;
      // The worker holds it already: a failure to name it is said, and the call's result kept.
      await hold(path).catch((error: unknown) =>
        log(`could not hold ${path.join('/')} against collection: ${describeError(error)}`),
      );
      return result;
    };

  const methodsOf: Record<string, Method> = {};
  for (const method of methods) {
    if (method.startsWith('__')) continue;
    methodsOf[method] = passOn(method);
  }
  return Far('GuestPowers', methodsOf);
};
harden(holdWhatIsHanded);
