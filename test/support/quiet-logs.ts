/**
 * The test run's setup (vitest.config.ts): the agent's and the MCP bridge's log lines (`[dave] turn
 * #1 …`, `[mcp-everything] starting the server …`) are not printed, for their one sink
 * (providers/stderr-sink.ts) is turned off in each test file's process (issue 45). They are not
 * under test there and filled `npm test`'s output. A test of a log reads it through a sink of its
 * own (test/agent-log-lines.test.ts), a child's stderr, which prints as it does for a user
 * (LAL_LOG, docs/configuration.md), or this process's stream with printing turned on while it reads
 * (test/support/setup-harness.ts); anything else written to stderr is kept.
 */
import { printStderrLines } from '../../providers/stderr-sink.js';

printStderrLines(false);
