/**
 * A quiet `npm test` (issue 45, CONTRIBUTING.md): the agent's and the MCP bridge's log lines,
 * written by their one sink (providers/stderr-sink.ts), are told apart from anything else on
 * stderr, and left out of the run's output (test/support/quiet-logs.ts); the rest is kept.
 */
import { describe, expect, it } from 'vitest';
import { isLogLine } from './support/console-noise.js';

describe('the log lines a test run leaves out', () => {
  it("are the agent's and the bridge's, one line each", () => {
    expect(
      isLogLine('[dave] turn #1 from HOST: "ping": answered, 1 model call, tools: reply\n'),
    ).toBe(true);
    expect(isLogLine('[mcp-everything] starting the server (/usr/bin/node; sandbox: none)\n')).toBe(
      true,
    );
    expect(isLogLine('[lal] a line\n')).toBe(true);
  });

  it("and nothing else: a test's own words, a stack, several lines at once", () => {
    expect(isLogLine('AssertionError: expected 1 to be 2\n')).toBe(false);
    expect(isLogLine('    at run (file.ts:1:1)\n')).toBe(false);
    expect(isLogLine('[lal] one\nand another\n')).toBe(false);
    expect(isLogLine('[not a log line]\n')).toBe(false);
  });
});
