/**
 * Where a log's lines go: the worker's stderr, one line each (the daemon
 * keeps it as the caplet's log). The one sink of the agent's log and the
 * MCP bridge's; nothing else writes there.
 */

/**
 * Whether the sink prints: on in every process but the test run's, whose setup turns it off
 * (test/support/quiet-logs.ts): the lines are not under test there and filled `npm test`'s
 * output (issue 45). A test that reads them from the stream turns it on while it reads
 * (test/support/setup-harness.ts); a log given a sink of its own gets every line either way.
 */
let printing = true;

/** Turns this process's printing of the lines on or off; says whether it was on. */
export const printStderrLines = (on: boolean): boolean => {
  const was = printing;
  printing = on;
  return was;
};
harden(printStderrLines);

export const writeStderrLine = (line: string): void => {
  if (printing) process.stderr.write(`${line}\n`);
};
harden(writeStderrLine);
