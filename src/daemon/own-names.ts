/**
 * The names the agent keeps for itself at the top of its directory: its
 * state directory (its memory, and memories kept aside), the memory's name
 * before version 12 (and memories kept aside then), its history, who gave
 * each adopted tool, and the channels it joined. No tool the model calls reaches them (./store-boundary.ts,
 * behaviour 9.6).
 */

// Named here, below every part that keeps one, so the parts read their name from
// the one list the store boundary guards (docs/architecture.md, "Layers").
/**
 * The directory of the agent's own state (since memory version 12): its memory, written after
 * each piece of work, lies in it rather than at the top, where every write would be told to the
 * agent's own follower of its names (src/memory/memory-place.ts).
 */
export const STATE_DIRECTORY = 'agent-state';
harden(STATE_DIRECTORY);
/** The agent's memory (src/memory/agent-memory.ts), in the state directory. */
export const MEMORY_PATH: readonly string[] = harden([STATE_DIRECTORY, 'memory']);
harden(MEMORY_PATH);
/**
 * How the agent names, in the state directory, what its worker was handed, so no turn can make
 * it unreachable (./held-formulas.ts): `held-<formula number>`, one name a formula.
 */
export const HELD_PREFIX = 'held-';
harden(HELD_PREFIX);
/** Whether a name in the state directory is one of those. */
export const isHeldName = (name: string): boolean => name.startsWith(HELD_PREFIX);
harden(isHeldName);
/**
 * Where earlier releases named them: a directory of their own, which the agent lets go of at
 * start (at f0a46042a setup left it naming a collected formula, ./held-formulas.ts).
 */
export const OLD_HELD_PATH: readonly string[] = harden([STATE_DIRECTORY, 'held']);
harden(OLD_HELD_PATH);
/** Where memory version 11 and older lay (moved into the state directory at load), and the prefix of memories kept aside then. */
export const OLD_MEMORY_NAME = 'agent-memory';
harden(OLD_MEMORY_NAME);
/** The searchable history's directory (src/recall/history-chunks.ts). */
export const HISTORY_DIRECTORY = 'agent-history';
harden(HISTORY_DIRECTORY);
/** Who gave each adopted tool (src/agent-tools/tool-givers.ts). */
export const TOOL_GIVERS_NAME = 'agent-tool-givers';
harden(TOOL_GIVERS_NAME);
/** The channels the agent joined (src/channels/channel-roster.ts). */
export const CHANNELS_DIRECTORY = 'agent-channels';
harden(CHANNELS_DIRECTORY);

export const OWN_NAMES: readonly string[] = harden([
  STATE_DIRECTORY,
  OLD_MEMORY_NAME,
  HISTORY_DIRECTORY,
  TOOL_GIVERS_NAME,
  CHANNELS_DIRECTORY,
]);
harden(OWN_NAMES);

/** One of the agent's own names: those above, or a memory kept aside (`agent-memory-v6`, …). */
export const isOwnName = (name: string): boolean =>
  OWN_NAMES.includes(name) || name.startsWith(`${OLD_MEMORY_NAME}-`);
harden(isOwnName);
