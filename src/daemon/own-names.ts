/**
 * The names the agent keeps for itself at the top of its directory: its
 * memory (and memories kept aside), its history, who gave each adopted
 * tool, and the channels it joined. No tool the model calls reaches them (./store-boundary.ts,
 * behaviour 9.6).
 */

// Named here, below every part that keeps one, so the parts read their name from
// the one list the store boundary guards (docs/architecture.md, "Layers").
/** The agent's memory (src/memory/agent-memory.ts). */
export const MEMORY_NAME = 'agent-memory';
harden(MEMORY_NAME);
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
  MEMORY_NAME,
  HISTORY_DIRECTORY,
  TOOL_GIVERS_NAME,
  CHANNELS_DIRECTORY,
]);
harden(OWN_NAMES);

/** One of the agent's own names: those above, or a memory kept aside (`agent-memory-v6`, …). */
export const isOwnName = (name: string): boolean =>
  OWN_NAMES.includes(name) || name.startsWith(`${MEMORY_NAME}-`);
harden(isOwnName);
