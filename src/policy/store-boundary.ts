/**
 * What no tool the model calls may touch in the guest's directory
 * (behaviour 9.6, 9.7): the agent's own store (its memory, the memories
 * kept aside, its history, the record of who gave each tool), which is
 * neither listed, read, written nor removed; the names that grant trust
 * (LAL_TRUSTED_SENDERS), which only the HOST may create, change or remove;
 * and `tools/`, whose entries only the HOST (or `mail adoptTool`, under a
 * new name) puts there. A path is judged by what it reaches, not by how it
 * is spelt: every prefix is identified, so `AGENT/agent-history`, or a name
 * the model made for the agent itself or for tools/, reaches the same
 * refusal. Each refusal is one line that says why.
 */
import { identifyPath } from './identify-path.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { DecodedCall } from '../agent-tools/decode-call.js';
import { TOOLS_DIRECTORY } from '../agent-tools/fae-tool-registry.js';
import { callPaths } from './call-paths.js';
import { isOwnName, OWN_NAMES } from '../daemon/own-names.js';

export interface StoreBoundary {
  /** Why the model may not make this call (one line), or undefined. */
  refusal(call: DecodedCall): Promise<string | undefined>;
  /** Whether listing this path lists the guest's own directory (its own names then left out). */
  isOwnDirectory(path: readonly string[]): Promise<boolean>;
  /**
   * The boundary for a turn whose paths are read by other powers (a party's
   * facet, src/parties/): a path is judged only by what it reaches, by
   * identity, since its spelling names the party's own names, not the
   * guest's (an `agent-memory` or `alice` of the party's is the party's).
   */
  within(powers: PowersRef): Pick<StoreBoundary, 'refusal'>;
}

/** Where a path leads: into the agent's own store, or to a path from the top (and whether through tools/, or through the agent itself). */
type Reach =
  | { own: string }
  | { fromTop: readonly string[]; inTools: readonly string[] | undefined; throughAgent: boolean };

const ownRefusal = (spelt: string) =>
  `"${spelt}" is the agent's own store (its memory and history): no tool may list, read, write or remove it.`;

export const makeStoreBoundary = (options: {
  powers: PowersRef;
  /** The daemon's special name for the guest itself (AGENT, @agent), through which its names can be walked. */
  selfName: string;
  /** The pet names LAL_TRUSTED_SENDERS trusts. */
  trustedNames: () => readonly string[];
}): StoreBoundary => {
  const { powers, selfName, trustedNames } = options;
  const identify = (path: readonly string[]) => identifyPath(powers, path);
  let selfId: Promise<string | undefined> | undefined;

  /** Where a path leads, its prefixes identified through `through` (the guest's powers, or a facet's). */
  const reach = async (path: readonly string[], through = powers): Promise<Reach> => {
    selfId ??= identify([selfName]);
    const [self, tools, ownIds, ids] = await Promise.all([
      selfId,
      identify([TOOLS_DIRECTORY]),
      Promise.all(OWN_NAMES.map(name => identify([name]))),
      Promise.all(path.map((_, index) => identifyPath(through, path.slice(0, index + 1)))),
    ]);
    const own = new Set(ownIds.filter(id => id !== undefined));
    let top = 0;
    let toolsAt: number | undefined;
    for (const [index, id] of ids.entries()) {
      if (id === undefined) continue;
      if (own.has(id)) return { own: path.slice(0, index + 1).join('/') };
      // Through the agent itself: what follows is a name at its top again.
      if (id === self) {
        top = index + 1;
        toolsAt = undefined;
      } else if (id === tools) toolsAt = index + 1;
    }
    const fromTop = path.slice(top);
    // A facet's path is read inside the party's own names: a name there is the party's, whatever its spelling.
    const inTools = () => (toolsAt === undefined ? undefined : path.slice(toolsAt));
    if (top === 0 && through !== powers)
      return { fromTop: [], inTools: inTools(), throughAgent: false };
    const first = fromTop[0];
    if (first !== undefined && isOwnName(first)) return { own: path.join('/') };
    if (first === TOOLS_DIRECTORY) toolsAt ??= top + 1;
    return { fromTop, inTools: inTools(), throughAgent: top > 0 };
  };

  const writeRefusal = (path: readonly string[], where: Reach): string | undefined => {
    if ('own' in where) return ownRefusal(where.own);
    const spelt = path.join('/');
    if (where.inTools !== undefined)
      return `"${spelt}" is in ${TOOLS_DIRECTORY}/, where only the HOST puts tools: no tool may create, replace, move or remove a name there (adopt a tool under a new name with mail adoptTool).`;
    const [name, ...rest] = where.fromTop;
    if (name !== undefined && rest.length === 0 && trustedNames().includes(name))
      return `"${spelt}" names a sender the HOST trusts (LAL_TRUSTED_SENDERS): only the HOST may create, change or remove it.`;
    return undefined;
  };

  return {
    within: through => ({
      async refusal(call) {
        const { reads, writes } = callPaths(call);
        const judged = await Promise.all(
          [...reads, ...writes].map(async path => {
            const where = await reach(path, through);
            if ('own' in where) return ownRefusal(where.own);
            // Something the HOST put among the party's names that is the agent itself: its names are not the party's.
            if (where.throughAgent)
              return `"${path.join('/')}" reaches the agent itself: a turn serving another party reaches only that party's names.`;
            return writeRefusal(path, where);
          }),
        );
        return judged.find(line => line !== undefined);
      },
    }),
    async refusal(call) {
      const { reads, writes } = callPaths(call);
      const judged = await Promise.all([
        ...reads.map(async path => {
          const where = await reach(path);
          return 'own' in where ? ownRefusal(where.own) : undefined;
        }),
        ...writes.map(async path => writeRefusal(path, await reach(path))),
      ]);
      return judged.find(line => line !== undefined);
    },
    async isOwnDirectory(path) {
      if (path.length === 0) return true;
      const where = await reach(path);
      return !('own' in where) && where.fromTop.length === 0;
    },
  };
};
harden(makeStoreBoundary);
