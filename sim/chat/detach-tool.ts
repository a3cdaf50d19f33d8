/**
 * `/detach <tool>` and `/detach mcp <name>`: the inverse of `/attach`. The HOST takes what it
 * attached out of the agent's `tools/` (under whatever name the agent adopted it) and drops its
 * own name for it, so the agent no longer offers it from its next turn, it is not given back at
 * the next run (./kept-tools.ts keeps only what `tools/` holds), and the daemon collects it once
 * nothing names it. A name in `tools/` that the HOST did not attach is taken out too when named
 * exactly (`/detach calculator`).
 */
import { E } from '@endo/far';
import type { HostPowers } from '../mail-host/index.js';
import { attachedPetName } from './attach-tool.js';

const TOOLS = 'tools';

const USAGE = 'Usage: /detach <tool> (as you attached it: /detach runCommand, /detach mcp <name>)';

/** The pet name `/attach` gave what these words name: `mcp-<name>`, a tool's (`run-command`), else the words. */
const petNameOf = (words: string): string => {
  const [first = '', second, ...more] = words.trim().split(/\s+/);
  if (first === '' || more.length > 0) throw Error(USAGE);
  if (first.toLowerCase() === 'mcp') {
    if (second === undefined) throw Error(USAGE);
    return `mcp-${second}`;
  }
  if (second !== undefined) throw Error(USAGE);
  return attachedPetName(first) ?? first;
};

export interface DetachPowers {
  has(...path: string[]): unknown;
  list(...path: string[]): unknown;
  identify(...path: string[]): unknown;
  remove(...path: string[]): unknown;
}

/** Takes the tool out of the agent's tools/ and the HOST's names; resolves to a line for the person. Throws with a clear message. */
export const detachTool = async (options: {
  host: HostPowers;
  guest: DetachPowers;
  guestName: string;
  words: string;
}): Promise<string> => {
  const { host, guest, guestName } = options;
  const petName = petNameOf(options.words);
  const made = (await E(host).has(petName)) ? await E(host).identify(petName) : undefined;
  const names = (await E(guest).has(TOOLS)) ? ((await E(guest).list(TOOLS)) as string[]) : [];
  const taken: string[] = [];
  for (const name of names) {
    const id = await E(guest).identify(TOOLS, name);
    if (name !== petName && (made === undefined || id !== made)) continue;
    await E(guest).remove(TOOLS, name);
    taken.push(name);
  }
  if (made !== undefined) await E(host).remove(petName);
  if (taken.length === 0 && made === undefined)
    throw Error(
      `Nothing named ${petName} is in ${guestName}'s tools/ or among what you attached; ${names.length === 0 ? `${guestName}'s tools/ is empty` : `${guestName}'s tools/ holds: ${names.join(', ')}`}`,
    );
  return taken.length === 0
    ? `dropped ${petName}, which ${guestName} had not adopted; it is not in ${guestName}'s tools/`
    : `took ${taken.join(', ')} out of ${guestName}'s tools/; ${guestName} no longer offers ${taken.length === 1 ? 'it' : 'them'} from its next turn`;
};
harden(detachTool);
