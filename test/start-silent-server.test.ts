/**
 * `npm start` at a model server that takes the connection and never answers
 * (issue 45; docs/troubleshooting.md): the start-up check says that something
 * is there and took the connection but sent no answer in time (a model still
 * loading, a server overloaded), and what to do; not that nothing answers,
 * which is what a refused connection is told.
 */
import { describe, expect, it } from 'vitest';
import { useStartAtRawServer } from './support/run-sim.js';

const raw = useStartAtRawServer();

describe('npm start at a server that never answers', () => {
  it("says it took the connection and sent nothing within the check's 3 s, and what to do", async () => {
    // Takes each request and never answers it (closed after the test).
    const host = `${await raw.serve(() => {})}/v1`;
    const run = await raw.start({ LAL_HOST: host, LAL_MODEL: 'm' });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('Nothing answers');
    expect(run.stderr).not.toContain('aborted');
    expect(run.stderr).toContain(
      `${host} took the connection but sent no answer within 3 s — is the model server still loading a model, or busy? Wait until it answers (its own log says when it is ready), then start again; if it never does, restart it, or check that LAL_HOST names the model server.`,
    );
  });

  it('still says nothing answers when the connection is refused', async () => {
    const host = `${await raw.serve(() => {})}/v1`;
    await raw.close();
    const run = await raw.start({ LAL_HOST: host, LAL_MODEL: 'm' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Nothing answers at ${host} (ECONNREFUSED) — is the model server running there? Check LAL_HOST.`,
    );
  });
});
