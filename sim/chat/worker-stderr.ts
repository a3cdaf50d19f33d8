/**
 * What caplets write to the worker's stderr (the MCP bridge's log lines,
 * providers/stderr-sink.ts) is, in the daemon, the caplet's log; in the
 * simulator those caplets share the chat's process, so while the chat runs
 * their lines go to the run's log file (and, with --verbose, the screen),
 * not between the chat's lines.
 */
export const divertStderr = (log: (line: string) => void): (() => void) => {
  const original = process.stderr.write.bind(process.stderr);
  let partial = '';
  const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const text =
      partial + (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) log(line);
    const done = rest.find(each => typeof each === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
  process.stderr.write = write;
  return () => {
    if (partial !== '') log(partial);
    partial = '';
    process.stderr.write = original;
  };
};
harden(divertStderr);
