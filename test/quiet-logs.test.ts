/**
 * A quiet `npm test` (issue 45, CONTRIBUTING.md): the agent's and the MCP bridge's log lines are
 * not printed in the test run, for the setup (test/support/quiet-logs.ts) turns their one sink
 * (providers/stderr-sink.ts) off; a log given a sink of its own still gets each line, a test that
 * reads the stream turns printing on while it reads, and a process that never turned it off (a
 * user's worker, LAL_LOG in docs/configuration.md) prints each one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeLog } from '../src/log/log.js';
import { makeBridgeLog } from '../tools/lib/mcp/bridge-log.js';
import { printStderrLines } from '../providers/stderr-sink.js';

/** What is written to this process's stderr from now on, kept from the run's output. */
const watchStderr = () =>
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true) as unknown as {
    mock: { calls: unknown[][] };
  };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the log lines of the test run', () => {
  it("are not printed: the agent's and the bridge's, through their one sink", () => {
    const written = watchStderr();
    makeLog({ LAL_NAME: 'dave' })('turn #1 from HOST: "ping": answered, 1 model call');
    makeBridgeLog('everything', text => text)('starting the server (/usr/bin/node; sandbox: none)');
    expect(written.mock.calls).toEqual([]);
  });

  it('reach a log given a sink of its own, each line, a secret hidden', () => {
    const written = watchStderr();
    const lines: string[] = [];
    makeLog({ LAL_NAME: 'dave', LAL_API_KEY: 'sk-test-1234567890' }, line => lines.push(line))(
      'called with sk-test-1234567890',
    );
    expect(lines).toEqual(['[dave] called with [redacted]']);
    expect(written.mock.calls).toEqual([]);
  });

  it('reach the stream while a test reads it, printing turned on (test/support/setup-harness.ts)', () => {
    const written = watchStderr();
    const was = printStderrLines(true);
    try {
      makeLog({ LAL_NAME: 'dave' })('turn #1');
    } finally {
      printStderrLines(was);
    }
    makeLog({ LAL_NAME: 'dave' })('turn #2');
    expect(written.mock.calls).toEqual([['[dave] turn #1\n']]);
  });

  it('are printed, one line each, by a process that has not turned the sink off (a user’s)', async () => {
    vi.resetModules();
    // A fresh copy of the sink, as a worker that ran no test setup has it.
    const fresh = await import('../providers/stderr-sink.js');
    const written = watchStderr();
    fresh.writeStderrLine('[lal] a line');
    expect(written.mock.calls).toEqual([['[lal] a line\n']]);
  });
});
