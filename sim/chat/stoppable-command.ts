/**
 * The person's command that Ctrl-C can stop while it runs (./interrupt.ts):
 * one at a time, as commands run one after another. Today that is an
 * `/attach mcp`, whose server may take long to start (docs/mcp.md); the
 * command is given a signal and undoes what it began when it is aborted.
 */
export const makeStoppableCommand = () => {
  let running: AbortController | undefined;
  return harden({
    /** Runs `work` with a signal Ctrl-C aborts. */
    async run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      const controller = new AbortController();
      running = controller;
      try {
        return await work(controller.signal);
      } finally {
        if (running === controller) running = undefined;
      }
    },
    /** Aborts the command under way: true when there was one. */
    stop(): boolean {
      if (running === undefined || running.signal.aborted) return false;
      running.abort();
      return true;
    },
  });
};
harden(makeStoppableCommand);

export type StoppableCommand = ReturnType<typeof makeStoppableCommand>;
