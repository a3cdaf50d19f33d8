/**
 * What runs when the agent is cancelled. A hook added for one piece of
 * waiting work (a forget() call queued on the serving loop) is removed once
 * that work is done, so hooks do not pile up for as long as the agent runs.
 */
export interface CancelHooks {
  /** Adds a hook; the returned function removes it again. */
  add(hook: (reason: unknown) => void): () => void;
  /** Runs every hook once, in the order added, and forgets them. */
  run(reason: unknown): void;
  /** How many hooks wait. */
  size(): number;
}

export const makeCancelHooks = (): CancelHooks => {
  const hooks = new Set<(reason: unknown) => void>();
  return {
    add(hook) {
      // Wrapped, so the same function added twice is two hooks.
      const entry = (reason: unknown) => hook(reason);
      hooks.add(entry);
      return () => {
        hooks.delete(entry);
      };
    },
    run(reason) {
      const all = [...hooks];
      hooks.clear();
      for (const hook of all) hook(reason);
    },
    size: () => hooks.size,
  };
};
harden(makeCancelHooks);
