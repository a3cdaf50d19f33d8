/**
 * Where a log's lines go: the worker's stderr, one line each (the daemon
 * keeps it as the caplet's log). The one sink of the agent's log and the
 * MCP bridge's; nothing else writes there.
 */
export const writeStderrLine = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
harden(writeStderrLine);
