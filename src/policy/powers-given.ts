/**
 * What of the agent's own a call hands to someone (docs/behaviour.md 9.6):
 * the agent itself (AGENT, @agent), its mail (MAIL, @mail), or tools/ and
 * any tool in it, judged by identity along every path the call gives (its
 * record's `gives`: attachments, a request's answer, code's endowments, a
 * helper's grant, ./call-paths.ts), so a name the model made for them, or a
 * path through the agent itself, is the same. Only a turn of the HOST's may
 * give them, and only with the HOST's approval of that exact call
 * (./guard-tool-call.ts); another party's turn holds none of them.
 */
import type { PowersRef } from '../daemon/guest-powers.js';
import type { DecodedCall } from '../agent-tools/decode-call.js';
import { TOOLS_DIRECTORY } from '../agent-tools/fae-tool-registry.js';
import { callPaths } from './call-paths.js';
import { identifyPath } from './identify-path.js';

export interface PowersGiven {
  /** What of the agent's own the call gives, in words for the HOST, or undefined when nothing. */
  given(call: DecodedCall, through?: PowersRef): Promise<string | undefined>;
}

export const makePowersGiven = (options: {
  powers: PowersRef;
  /** The daemon's special names for the guest itself and for its mail. */
  names: { agent: string; mail: string };
}): PowersGiven => {
  const { powers, names } = options;
  const identify = (path: readonly string[], through: PowersRef = powers) =>
    identifyPath(through, path);
  // The agent's own, by id: fixed for its life, so identified once.
  let own: Promise<(string | undefined)[]> | undefined;

  /** What of the agent's own this path reaches: itself, its mail, tools/ or a tool in it. */
  const reaches = async (path: readonly string[], through: PowersRef) => {
    own ??= Promise.all([
      identify([names.agent]),
      identify([names.mail]),
      identify([TOOLS_DIRECTORY]),
    ]);
    const [[agent, mail, tools], ids] = await Promise.all([
      own,
      Promise.all(path.map((_, index) => identify(path.slice(0, index + 1), through))),
    ]);
    const spelt = path.join('/');
    const last = ids.at(-1);
    if (last !== undefined && last === agent) return `"${spelt}" (the agent itself)`;
    if (last !== undefined && last === mail) return `"${spelt}" (the agent's mail)`;
    if (tools !== undefined && ids.includes(tools))
      return `"${spelt}" (${TOOLS_DIRECTORY}/, the HOST's tools)`;
    return undefined;
  };

  return harden({
    async given(call, through = powers) {
      const found = await Promise.all(callPaths(call).gives.map(path => reaches(path, through)));
      const named = found.filter(what => what !== undefined);
      return named.length === 0 ? undefined : named.join(', ');
    },
  });
};
harden(makePowersGiven);
