/**
 * Walking a name path through nested name hubs: directly through this
 * process's directories, through E() for a remote hub.
 */
import { E } from '@endo/far';
import { assertNamePath, quote } from './pet-name.js';
import type { DirectoryNode } from './directory.js';
import type { FormulaTable } from './formula-table.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId, NameOrPath } from './types.js';

/** A remote name hub, as far as directories call it. */
export interface RemoteHub {
  has(...path: string[]): Promise<boolean>;
  identify(...path: string[]): Promise<FormulaId | undefined>;
  list(...path: string[]): Promise<readonly string[]>;
  lookup(nameOrPath: NameOrPath): Promise<unknown>;
  write(nameOrPath: NameOrPath, id: FormulaId): Promise<void>;
  remove(...path: string[]): Promise<void>;
  move(fromPath: readonly string[], toPath: readonly string[]): Promise<void>;
}

/** A hub reached by a path: this process's node when it is one, else the remote value. */
type Hub = { node: DirectoryNode } | { remote: RemoteHub };

export type HubForId = (id: FormulaId) => Promise<Hub>;

/** The hub a formula id stands for. */
export const makeHubForId =
  (table: FormulaTable): HubForId =>
  async id => {
    const node = table.nodeOf(id);
    if (node) return { node };
    return { remote: (await table.provide(id)) as RemoteHub };
  };
harden(makeHubForId);

export type TailHub = (path: readonly string[]) => Promise<{ hub: Hub; name: string }>;

/**
 * The hub holding the last name of a path (walked from `store`, whose node
 * `self` gives), and that name. A step through a guest or the host calls its
 * `lookup`, as the daemon's walk does (directory.js); `agentLookedUp` is told
 * then (at f0a46042a that call ends with a collection).
 */
export const makeTailHub =
  (
    store: PetStore,
    hubForId: HubForId,
    self: () => DirectoryNode,
    typeOf: (id: FormulaId) => string | undefined,
    agentLookedUp: () => void,
  ): TailHub =>
  async path => {
    assertNamePath(path);
    const name = path[path.length - 1] as string;
    if (path.length === 1) return { hub: { node: self() }, name };
    const prefix = path.slice(0, -1);
    const [head, ...rest] = prefix as [string, ...string[]];
    const headId = store.identifyLocal(head);
    if (headId === undefined) throw TypeError(`Unknown pet name: ${quote(head)}`);
    let hub = await hubForId(headId);
    let hubId: FormulaId | undefined = headId;
    for (const step of rest) {
      const type = hubId === undefined ? undefined : typeOf(hubId);
      if (type === 'guest' || type === 'host') agentLookedUp();
      if ('node' in hub) {
        const stepId = hub.node.store.identifyLocal(step);
        if (stepId === undefined) throw TypeError(`Unknown pet name: ${quote(step)}`);
        hub = await hubForId(stepId);
        hubId = stepId;
      } else {
        hubId = undefined;
        hub = { remote: (await E(hub.remote).lookup(step)) as RemoteHub };
      }
    }
    return { hub, name };
  };
harden(makeTailHub);
