/**
 * The newest daemon's channels as the simulator's state folder keeps them
 * between runs, as the daemon's own state does: each channel's id and store
 * (./channels.ts), and the pet names that reach it from the host's and each
 * guest's directory, at the top or one folder down (the agent's
 * `agent-channels/<key>`), so that the HOST finds its channel by name again
 * and the agent joins and follows again what it joined.
 */
import type { Agent } from './agents.js';
import type { KeptChannel } from './channels.js';
import type { DaemonParts } from './daemon-parts.js';
import type { FormulaId } from './types.js';

export interface KeptChannelNames extends KeptChannel {
  /** Each name that reaches the channel: whose directory (by AGENT id), and the path in it. */
  readonly names: readonly { readonly agentId: FormulaId; readonly path: readonly string[] }[];
}

/** The paths (a name, or a folder and a name in it) whose id `wanted` holds. */
const pathsTo = (
  agent: Agent,
  parts: Pick<DaemonParts, 'table'>,
  wanted: ReadonlySet<FormulaId>,
): { id: FormulaId; path: string[] }[] =>
  agent.names.list().flatMap(name => {
    const id = agent.names.identifyLocal(name);
    if (id === undefined) return [];
    if (wanted.has(id)) return [{ id, path: [name] }];
    const folder = parts.table.typeOf(id) === 'directory' ? parts.table.nodeOf(id) : undefined;
    return (folder?.store.list() ?? []).flatMap(inner => {
      const innerId = folder?.store.identifyLocal(inner);
      return innerId !== undefined && wanted.has(innerId)
        ? [{ id: innerId, path: [name, inner] }]
        : [];
    });
  });

export const keepChannels = (
  parts: Pick<DaemonParts, 'table' | 'channels' | 'guests'>,
  host: Agent,
): KeptChannelNames[] => {
  const channels = parts.channels.kept();
  const wanted = new Set(channels.map(({ id }) => id));
  const named = [host, ...parts.guests].flatMap(agent =>
    pathsTo(agent, parts, wanted).map(found => ({ ...found, agentId: agent.agentId })),
  );
  return channels.map(channel => ({
    ...channel,
    names: named
      .filter(({ id }) => id === channel.id)
      .map(({ agentId, path }) => ({ agentId, path })),
  }));
};
harden(keepChannels);

/**
 * Makes the kept channels again and writes back the names that reached them (a folder that is
 * not there is made). Call it once the guests' own stores are back: a folder made again after
 * it would drop the name.
 */
export const putBackChannels = async (
  parts: Pick<DaemonParts, 'table' | 'channels' | 'guests'>,
  host: Agent,
  kept: readonly unknown[],
): Promise<void> => {
  const madeAgain = new Set(parts.channels.putBack(kept));
  const agents = [host, ...parts.guests];
  for (const channel of kept as readonly Partial<KeptChannelNames>[]) {
    if (channel.id === undefined || !madeAgain.has(channel.id)) continue;
    for (const { agentId, path } of Array.isArray(channel.names) ? channel.names : []) {
      const agent = agents.find(each => each.agentId === agentId);
      const whole =
        Array.isArray(path) &&
        (path.length === 1 || path.length === 2) &&
        path.every(part => typeof part === 'string');
      if (agent === undefined || !whole) continue;
      const [first] = path;
      if (
        path.length === 2 &&
        parts.table.typeOf(agent.names.identifyLocal(first!) ?? '') !== 'directory'
      )
        await agent.directory.makeDirectory(first!);
      await agent.directory.write([...path], channel.id);
    }
  }
};
harden(putBackChannels);
