/**
 * The test run leaves out the lines the agent's log and the MCP bridge's write to the worker's
 * stderr (`[dave] turn #1 …`, `[mcp-everything] starting the server …`: providers/stderr-sink.ts,
 * their one sink): they are not under test there, and filled `npm test`'s output (issue 45). A test
 * of a log reads it through a sink of its own (test/agent-log-lines.test.ts) or a child's stderr.
 * Anything else written to stderr is kept: a test's own diagnostics still show.
 */
import { isLogLine } from './console-noise.js';

const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk: unknown, ...rest: unknown[]) => {
  if (typeof chunk === 'string' && isLogLine(chunk)) {
    // A write takes an optional encoding, then a callback: told it is done, as it would be.
    const done = rest.find(each => typeof each === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }
  return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
};
