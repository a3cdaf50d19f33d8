/**
 * A stopped run's last write is awaited by the run made next in the same worker process
 * (src/lifecycle/last-write.ts, docs/behaviour.md 10.2, issue 45): the next run waits until it is
 * done, or for its bound when it never comes; the first run, and another agent's, wait for nothing.
 * The daemon is handed no disposal hook (it would call it in its own process, where a worker's is
 * only a remote reference: test/lifecycle-cancel-over-captp.test.ts). The agent-level judges:
 * agent-approved-call-cancelled, agent-cancelled-usage.
 */
import { describe, expect, it } from 'vitest';
import { lastWriteOf, makeLastWrites } from '../src/lifecycle/last-write.js';

/** Whether `promise` has settled once every turn queued now has run. */
const settledSoon = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise(resolve => setImmediate(resolve));
  return settled;
};

describe('the last write of the run before', () => {
  it('the next run waits until the stopped run’s last write is done', async () => {
    const writes = makeLastWrites();
    const stopped = lastWriteOf(writes, 'lal', 600_000);
    const next = lastWriteOf(writes, 'lal', 600_000);
    const waited = next.previous();
    expect(await settledSoon(waited)).toBe(false);
    stopped.written();
    await waited;
  });

  it('ends at once when the write was done before the next run asks', async () => {
    const writes = makeLastWrites();
    lastWriteOf(writes, 'lal', 600_000).written();
    expect(await settledSoon(lastWriteOf(writes, 'lal', 600_000).previous())).toBe(true);
  });

  it('ends after its bound when the write never comes (a run that does not end)', async () => {
    const writes = makeLastWrites();
    lastWriteOf(writes, 'lal', 5);
    const waited = lastWriteOf(writes, 'lal', 5).previous();
    expect(await settledSoon(waited)).toBe(false);
    await waited;
  });

  it('the first run, and another agent’s, wait for nothing; a done write is forgotten', async () => {
    const writes = makeLastWrites();
    expect(await settledSoon(lastWriteOf(writes, 'lal', 600_000).previous())).toBe(true);
    expect(await settledSoon(lastWriteOf(writes, 'fae', 600_000).previous())).toBe(true);
    const last = lastWriteOf(writes, 'bob', 600_000);
    last.written();
    await new Promise(resolve => setImmediate(resolve));
    expect(writes.has('bob')).toBe(false);
  });
});
