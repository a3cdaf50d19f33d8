/**
 * The helpers running, as the agent's store keeps them (memory version 8,
 * src/memory/agent-memory.ts): enough to tell the parent which were lost
 * when the agent restarts (behaviour 7.9), never enough to run one again.
 * A memory of version 7 or older has none.
 */

export interface StoredHelper {
  id: string;
  task: string;
  /** The tool, op and pet names it was given. */
  granted: string[];
  /** The message it serves (JSON: the number as a string); none for the agent's own work. */
  origin?: { number: string; sender: string };
  startedAt: number;
  depth: number;
}

export interface HelperStore {
  /** The last helper number given: ids are never reused, across restarts too. */
  seq: number;
  running: StoredHelper[];
}

export const emptyHelperStore = (): HelperStore => ({ seq: 0, running: [] });
harden(emptyHelperStore);

const isStoredHelper = (value: unknown): value is StoredHelper => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const origin = record.origin as Record<string, unknown> | undefined;
  return (
    typeof record.id === 'string' &&
    typeof record.task === 'string' &&
    Array.isArray(record.granted) &&
    record.granted.every(name => typeof name === 'string') &&
    typeof record.startedAt === 'number' &&
    typeof record.depth === 'number' &&
    (origin === undefined ||
      (typeof origin.number === 'string' &&
        /^\d+$/.test(origin.number) &&
        typeof origin.sender === 'string'))
  );
};

/** The stored helpers that read; an entry that does not read is counted as lost. */
export const readHelperStore = (value: unknown): { store: HelperStore; lost: number } => {
  if (value === null || typeof value !== 'object') return { store: emptyHelperStore(), lost: 0 };
  const record = value as Record<string, unknown>;
  const entries: unknown[] = Array.isArray(record.running) ? record.running : [];
  const running = entries.filter(isStoredHelper);
  const seq =
    typeof record.seq === 'number' && Number.isSafeInteger(record.seq) && record.seq >= 0
      ? record.seq
      : 0;
  return { store: { seq, running }, lost: entries.length - running.length };
};
harden(readHelperStore);
