/**
 * The names the agent keeps for itself at the top of its directory: its
 * memory (and memories kept aside), its history, who gave each adopted
 * tool, and the channels it joined. No tool the model calls reaches them (./store-boundary.ts,
 * behaviour 9.6).
 */
import { MEMORY_NAME } from '../memory/agent-memory.js';
import { HISTORY_DIRECTORY } from '../recall/history-chunks.js';
import { TOOL_GIVERS_NAME } from '../agent-tools/tool-givers.js';
import { CHANNELS_DIRECTORY } from '../channels/channel-roster.js';

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
