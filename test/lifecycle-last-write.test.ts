/**
 * The disposal hook that lets a stopped run's last write finish (src/lifecycle/last-write.ts,
 * docs/behaviour.md 10.2, issue 45): the daemon (here its double's context) is not done cancelling
 * a caplet until its hooks end, and the agent's ends once its last write is done, or after its
 * bound when that never comes; a context that takes no hook, or none at all, changes nothing.
 * The agent-level judges: agent-approved-call-cancelled, agent-cancelled-usage.
 */
import { describe, expect, it } from 'vitest';
import { E, Far } from '@endo/far';
import { awaitOnDisposal } from '../src/lifecycle/last-write.js';
import { makeCapletContext } from '../sim/mail-host/context.js';

/** A context that keeps the hooks it is given. */
const keepingContext = () => {
  const hooks: (() => Promise<void>)[] = [];
  const context = Far('Context', {
    addDisposalHook: (hook: () => Promise<void>) => void hooks.push(hook),
  });
  return { context, hooks };
};

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

describe('the hook on the daemon’s context', () => {
  it('the daemon is done cancelling only once the last write is done', async () => {
    const kit = makeCapletContext('1:node');
    const written = awaitOnDisposal(kit.far, 600_000);
    // The hook is given in a later turn (through E): cancel once the context holds it.
    await new Promise(resolve => setImmediate(resolve));
    const disposed = kit.cancel('Ctrl-C');
    expect(await settledSoon(disposed)).toBe(false);
    written();
    await disposed;
  });

  it('is given once, and ends at once when the write was done before the daemon asks', async () => {
    const { context, hooks } = keepingContext();
    const written = awaitOnDisposal(context, 600_000);
    await expect.poll(() => hooks.length).toBe(1);
    written();
    await E(hooks[0]!)();
    expect(hooks).toHaveLength(1);
  });

  it('waits for the write, however long the daemon asked before it', async () => {
    const { context, hooks } = keepingContext();
    const written = awaitOnDisposal(context, 600_000);
    await expect.poll(() => hooks.length).toBe(1);
    const ended = E(hooks[0]!)();
    expect(await settledSoon(ended)).toBe(false);
    written();
    await ended;
  });

  it('ends after its bound when the write never comes (a run that does not end)', async () => {
    const { context, hooks } = keepingContext();
    awaitOnDisposal(context, 5);
    await expect.poll(() => hooks.length).toBe(1);
    await E(hooks[0]!)();
  });
});

describe('a context that takes no hook', () => {
  it('none at all (a test’s make), or one without addDisposalHook (an older daemon): nothing fails', async () => {
    const rejections: unknown[] = [];
    const seen = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', seen);
    try {
      for (const context of [undefined, null, Far('OlderContext', { id: () => '1' })]) {
        const written = awaitOnDisposal(context, 5);
        expect(typeof written).toBe('function');
        written();
      }
      // Two turns of the event loop: an unhandled rejection is reported after the first.
      await new Promise(resolve => setImmediate(resolve));
      await new Promise(resolve => setImmediate(resolve));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', seen);
    }
  });
});
