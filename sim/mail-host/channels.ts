/**
 * Every channel of the simulated newest daemon: `makeChannel` formulates one
 * (its store and its first incarnation) and names it; a restart keeps each
 * channel's messages and written members and makes a new incarnation, whose
 * admin the channel's formula then provides (handles of the old one fail).
 */
import { makeChannelIncarnation } from './channel.js';
import { makeChannelStore } from './channel-store.js';
import { namePathFrom } from './pet-name.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { FormulaId, NameOrPath } from './types.js';

export const makeChannels = (table: FormulaTable, now: () => Date, randomHex: () => string) => {
  let generation = 0;
  const restarts: (() => void)[] = [];

  const formulate = (proposedName: string): FormulaId => {
    const store = makeChannelStore(proposedName);
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
    const id = table.formulate({ type: 'channel', provide: () => incarnation.admin });
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
    /** A daemon restart: every channel's old objects fail, and each is made again from its store. */
    restart: () => {
      generation += 1;
      for (const again of restarts) again();
    },
  };
};
harden(makeChannels);
export type Channels = ReturnType<typeof makeChannels>;
