/**
 * Where a log's lines go: the worker's stderr, one line each (the daemon
 * keeps it as the caplet's log). The one sink of the agent's log and the
 * MCP bridge's; nothing else writes there.
 */

/**
 * Whether the sink prints. Off only in the test run, set once by its setup
 * (test/support/quiet-logs.ts): the lines are not under test there and filled
 * `npm test`'s output (issue 45). A log given a sink of its own still gets
 * every line, and a worker or child process prints as it always did.
 */
let printing = true;

/** Turns this process's sink off for good: its lines are dropped, unprinted. No way back on. */
export const quietStderrLines = (): void => {
  printing = false;
};
harden(quietStderrLines);

export const writeStderrLine = (line: string): void => {
  if (printing) process.stderr.write(`${line}\n`);
};
harden(writeStderrLine);
