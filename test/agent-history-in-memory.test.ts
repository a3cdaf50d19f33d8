/**
 * The searchable history's open chunk rides in the memory's one write
 * (issue 46, point 8; docs/behaviour.md 3.11, docs/architecture.md "The
 * agent's store"), through make() under lockdown against the daemon double:
 * a store as version 10 left it (the chunk being filled under
 * `agent-history/open`) loads with every exchange searchable once, its open
 * chunk closed as it stood; a chunk written just before a stop, while the
 * memory still held its exchanges, is told apart and kept once; a memory
 * whose open chunk is not in any closed chunk keeps it whole.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import type { AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { askRecall } from './support/recall-steps.js';
import type { MailHost } from '../sim/mail-host/index.js';
import { VERSION } from '../src/memory/agent-memory.js';

const { start } = useAgents();

const guestOf = (host: MailHost, name: string) => E(host.guest(name).powers);

/** An exchange as the history keeps it (src/recall/exchange-record.ts). */
const exchange = (n: number, words: string) => ({
  n,
  from: 'HOST',
  at: Date.UTC(2026, 10, 20, 9, n),
  in: `Message #${n} from HOST: ${words}`,
  out: 'replied "noted"',
});

/** A chunk as both versions write it: one JSON string. */
const chunk = (exchanges: unknown[]) => JSON.stringify({ version: 1, exchanges });

const emptyMemory = (version: number, more: Record<string, unknown> = {}) =>
  JSON.stringify({
    version,
    conversation: { digest: [], omitted: 0, turns: [] },
    threads: [],
    handled: [],
    usage: { since: Date.now() - 1_000, byModel: {}, recent: [] },
    wakeUps: [],
    asks: { next: 1, pending: [] },
    holds: [],
    notices: [],
    senders: [],
    helpers: { seq: 0, running: [] },
    ...more,
  });

const historyNames = async (run: AgentRun) =>
  [...((await guestOf(run.host, run.name).list('agent-history')) as string[])].sort();

const storedMemory = async (run: AgentRun) =>
  JSON.parse((await guestOf(run.host, run.name).lookup(['agent-state', 'memory'])) as string) as {
    version: number;
    openChunk?: { seq: number; exchanges: { n?: number }[] };
  };

describe('a store as version 10 left it (the open chunk under agent-history/open)', () => {
  const closed = chunk([exchange(3, 'the lighthouse key is under the mat')]);
  const open = chunk([
    exchange(5, 'the boat is called Mistral'),
    exchange(6, 'the harbour code is 4417'),
  ]);

  test('loads with every exchange searchable once: its open chunk is closed as it stood, and no open chunk is written again', async () => {
    const run = await start({
      steps: [],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await guest.storeValue(emptyMemory(10), 'agent-memory');
        await guest.makeDirectory('agent-history');
        await guest.storeValue(closed, ['agent-history', `c1-${closed.length}`]);
        await guest.storeValue(open, ['agent-history', 'open']);
      },
    });
    // Closed under the next number, by a move: its text is what version 10 wrote.
    expect(await historyNames(run)).toEqual([`c1-${closed.length}`, `c2-${open.length}`]);
    expect(await guestOf(run.host, run.name).lookup(['agent-history', `c2-${open.length}`])).toBe(
      open,
    );
    const boat = await askRecall(run, 'boat');
    expect(boat.searched).toBe(3);
    expect(boat.found.map(found => found.messageNumber)).toEqual([5]);
    expect(
      (await askRecall(run, 'lighthouse key')).found.map(found => found.messageNumber),
    ).toEqual([3]);
    // The exchanges since are in the memory, written with it: no open chunk in the directory.
    await expect.poll(async () => (await storedMemory(run)).openChunk?.exchanges.length).toBe(2);
    expect(await storedMemory(run)).toMatchObject({ version: VERSION, openChunk: { seq: 3 } });
    expect(await historyNames(run)).toEqual([`c1-${closed.length}`, `c2-${open.length}`]);
    // And once more after a restart: nothing taken in twice.
    await run.restart();
    const again = await askRecall(run, 'harbour code');
    expect(again.searched).toBe(5);
    expect(again.found.map(found => found.messageNumber)).toEqual([6]);
  });
});

describe('a chunk written just before a stop, the memory not yet saved after it', () => {
  const first = exchange(5, 'the boat is called Mistral');
  const second = exchange(6, 'the harbour code is 4417');

  test('is told apart: the exchanges the memory still holds are in it, and are kept once', async () => {
    const written = chunk([first, second]);
    const run = await start({
      steps: [],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        // The memory as last saved: the open chunk, to be closed as number 2, held `first`.
        await guest.storeValue(
          emptyMemory(11, { openChunk: { seq: 2, exchanges: [first] } }),
          'agent-memory',
        );
        await guest.makeDirectory('agent-history');
        const older = chunk([exchange(3, 'the lighthouse key is under the mat')]);
        await guest.storeValue(older, ['agent-history', `c1-${older.length}`]);
        // Then `second` filled it, it was written as c2, and the agent stopped before the memory's write.
        await guest.storeValue(written, ['agent-history', `c2-${written.length}`]);
      },
    });
    const boat = await askRecall(run, 'boat');
    expect(boat.searched).toBe(3);
    expect(boat.found.map(found => found.messageNumber)).toEqual([5]);
    // The next chunk is number 3: the open one started empty after c2, and holds the question since.
    await expect.poll(async () => (await storedMemory(run)).openChunk?.exchanges.length).toBe(1);
    expect((await storedMemory(run)).openChunk?.seq).toBe(3);
  });

  test('a closed chunk under the same number that does not hold them leaves them in the memory, under the next number', async () => {
    const other = chunk([exchange(4, 'the invoice is INV-20931')]);
    const run = await start({
      steps: [],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await guest.storeValue(
          emptyMemory(11, { openChunk: { seq: 1, exchanges: [first, second] } }),
          'agent-memory',
        );
        await guest.makeDirectory('agent-history');
        await guest.storeValue(other, ['agent-history', `c1-${other.length}`]);
      },
    });
    const boat = await askRecall(run, 'boat');
    expect(boat.searched).toBe(3);
    expect(boat.found.map(found => found.messageNumber)).toEqual([5]);
    expect((await askRecall(run, 'invoice')).found.map(found => found.messageNumber)).toEqual([4]);
    await expect
      .poll(async () => (await storedMemory(run)).openChunk?.exchanges.slice(0, 2))
      .toEqual([first, second]);
    expect((await storedMemory(run)).openChunk?.seq).toBe(2);
  });
});
