/**
 * Every channel of the simulated newest daemon: `makeChannel` formulates one
 * (its store and its first incarnation) and names it; a restart keeps each
 * channel's messages and written members and makes a new incarnation, whose
 * admin the channel's formula then provides (handles of the old one fail).
 * Between runs of the simulator each is kept (`kept`) and formulated again
 * under its id from what was kept (`putBack`), as the daemon's state keeps it.
 */
import { makeChannelIncarnation } from './channel.js';
import {
  makeChannelStore,
  readSavedChannelStore,
  type ChannelStore,
  type SavedChannelStore,
} from './channel-store.js';
import { isFormulaId } from './formula-id.js';
import { namePathFrom } from './pet-name.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { FormulaId, NameOrPath } from './types.js';

/** A channel as the simulator's state folder keeps it between runs: its id and its store. */
export interface KeptChannel {
  readonly id: FormulaId;
  readonly store: SavedChannelStore;
}

export const makeChannels = (table: FormulaTable, now: () => Date, randomHex: () => string) => {
  let generation = 0;
  const restarts: (() => void)[] = [];
  const stores = new Map<FormulaId, ChannelStore>();

  /** A new channel, or with `kept` one an earlier run kept, made again under its id. */
  const formulate = (proposedName: string, kept?: KeptChannel): FormulaId => {
    const store = makeChannelStore(proposedName, kept?.store);
    const incarnate = () => {
      const born = generation;
      return makeChannelIncarnation({
        store,
        now,
        randomHex,
        isCurrent: () => born === generation,
      });
    };
    let incarnation = incarnate();
    const formula = { type: 'channel' as const, provide: () => incarnation.admin };
    const id = kept === undefined ? table.formulate(formula) : table.register(kept.id, formula);
    stores.set(id, store);
    table.remember(incarnation.admin, id);
    restarts.push(() => {
      incarnation.disconnect();
      incarnation = incarnate();
      table.remember(incarnation.admin, id);
    });
    return id;
  };

  return {
    /** The host's makeChannel: a new channel named `petName`, its admin returned. */
    make: async (agent: Agent, petName: NameOrPath, proposedName: string) => {
      const id = formulate(proposedName);
      await agent.directory.write(namePathFrom(petName), id);
      return table.provide(id);
    },
    /** Each channel still there (not collected), as JSON keeps it. */
    kept: (): KeptChannel[] =>
      [...stores]
        .filter(([id]) => table.typeOf(id) === 'channel')
        .map(([id, store]) => ({ id, store: store.saved() })),
    /** Makes again each kept channel that reads whole; returns the ids made. */
    putBack: (kept: readonly unknown[]): FormulaId[] =>
      kept.flatMap(value => {
        const { id, store } = (value ?? {}) as { id?: unknown; store?: unknown };
        const saved = readSavedChannelStore(store);
        if (typeof id !== 'string' || !isFormulaId(id) || saved === undefined || stores.has(id))
          return [];
        return [formulate(saved.proposedName, { id, store: saved })];
      }),
    /** A daemon restart: every channel's old objects fail, and each is made again from its store. */
    restart: () => {
      generation += 1;
      for (const again of restarts) again();
    },
  };
};
harden(makeChannels);
export type Channels = ReturnType<typeof makeChannels>;
