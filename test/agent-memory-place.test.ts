/**
 * The memory's place since version 12 (src/memory/memory-place.ts,
 * docs/architecture.md "The agent's store"): `agent-state/memory`, in a
 * directory nobody follows, so that its write after each piece of work is
 * told to no follower of the guest's names. A store as the last release
 * (memory version 11) left it loads after the upgrade, moved, nothing lost
 * and nothing written twice; a move that stopped half-way is finished; a
 * memory left at the old name beside the new one is kept aside; a state
 * directory the daemon collected as the agent made it (f0a46042a) is made
 * again. Through make() under lockdown against the daemon double, both
 * profiles.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import type { AgentRun } from './support/agent-harness.js';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { askRecall } from './support/recall-steps.js';
import { DAEMON_PROFILES } from '../sim/mail-host/profile.js';
import type { MailHost } from '../sim/mail-host/index.js';
import { VERSION } from '../src/memory/agent-memory.js';
import { isHeldName } from '../src/daemon/own-names.js';

const { start } = useAgents();

const guestOf = (host: MailHost, name: string) => E(host.guest(name).powers);

/** An exchange as the history keeps it (src/recall/exchange-record.ts). */
const exchange = (n: number, words: string, out = 'replied "noted"') => ({
  n,
  from: 'HOST',
  at: Date.UTC(2026, 10, 20, 9, n),
  in: `Message #${n} from HOST: ${words}`,
  out,
});

/** A closed chunk of agent-history/, as versions 10 to 12 write it. */
const CHUNK = JSON.stringify({
  version: 1,
  exchanges: [exchange(1, 'the lighthouse key is under the mat')],
});
const CHUNK_NAME = `c1-${CHUNK.length}`;

/**
 * A memory exactly as the last release (version 11) wrote it at `agent-memory`: one HOST turn in
 * the conversation, its message handled, and the history's open chunk holding that exchange.
 */
const VERSION_11_MEMORY = JSON.stringify({
  version: 11,
  conversation: {
    digest: [],
    omitted: 0,
    turns: [
      {
        title: '#2 from HOST: "the boat is called Mistral"',
        messages: [
          {
            role: 'user',
            content: 'Message #2 from HOST: the boat is called Mistral',
            label: 'HOST',
          },
          { role: 'assistant', content: 'noted' },
        ],
        label: 'HOST',
      },
    ],
  },
  threads: [],
  handled: ['id:0123456789abcdef01234567'],
  usage: {
    since: Date.UTC(2026, 10, 20, 9, 0),
    byModel: { scripted: { calls: 2, inputTokens: 40, outputTokens: 6 } },
    recent: [],
  },
  wakeUps: [],
  asks: { next: 1, pending: [] },
  holds: [],
  notices: [],
  senders: [],
  helpers: { seq: 0, running: [] },
  openChunk: { seq: 2, exchanges: [exchange(2, 'the boat is called Mistral')] },
});

const storedMemory = async (run: AgentRun) =>
  JSON.parse((await guestOf(run.host, run.name).lookup(['agent-state', 'memory'])) as string) as {
    version: number;
    handled: string[];
    usage: { byModel: Record<string, { calls: number }> };
    conversation: { turns: { title: string }[] };
  };

/** The guest's own names, the daemon's special names left out. */
const ownNames = async (run: AgentRun) =>
  ((await guestOf(run.host, run.name).list()) as string[]).filter(name => /^[a-z]/.test(name));

describe.each(DAEMON_PROFILES)('a store as the last release left it (%s daemon)', profile => {
  test('loads after the upgrade: the memory moved into agent-state/ by one move, nothing lost, nothing written twice', async () => {
    let oldId: string | undefined;
    let chunkId: string | undefined;
    const calls: string[] = [];
    const run = await start({
      profile,
      steps: [],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await guest.storeValue(VERSION_11_MEMORY, 'agent-memory');
        await guest.makeDirectory('agent-history');
        await guest.storeValue(CHUNK, ['agent-history', CHUNK_NAME]);
        oldId = await guest.identify('agent-memory');
        chunkId = await guest.identify('agent-history', CHUNK_NAME);
        host.traceCalls(name, method => calls.push(method));
      },
    });
    const guest = guestOf(run.host, run.name);
    // Moved: the value the last release wrote, under its new path, before anything was written.
    const firstWrite = calls.indexOf('storeValue');
    expect(calls.indexOf('move')).toBeGreaterThanOrEqual(0);
    expect(firstWrite === -1 || calls.indexOf('move') < firstWrite).toBe(true);
    expect(await guest.has('agent-memory')).toBe(false);
    expect(await ownNames(run)).not.toContain('agent-memory');
    // The history's closed chunk stays where it was, the same value.
    expect(await guest.identify('agent-history', CHUNK_NAME)).toBe(chunkId);
    expect(oldId).toBeDefined();

    // Nothing lost: the conversation continues, the usage counts on, both exchanges are found once.
    run.provider.push(replyStep('it is Mistral'));
    await run.send('what is the boat called?');
    await run.reply('it is Mistral');
    expect(JSON.stringify(run.provider.requests.at(-1)!.messages)).toContain(
      'the boat is called Mistral',
    );
    const boat = await askRecall(run, 'boat');
    // The chunk's exchange, the open chunk's, and the turn since: each once.
    expect(boat.searched).toBe(3);
    expect(boat.found.map(found => found.messageNumber)).toContain(2);
    expect(
      (await askRecall(run, 'lighthouse key')).found.map(found => found.messageNumber),
    ).toEqual([1]);
    const stored = await storedMemory(run);
    expect(stored.version).toBe(VERSION);
    // Its message is no longer in the inbox: the key went at start (src/memory/handled-keys.ts).
    expect(stored.handled).toEqual([]);
    expect(run.logs).toContain(
      'let go of 1 handled message id(s) whose messages are no longer in the inbox',
    );
    expect(stored.usage.byModel.scripted!.calls).toBeGreaterThanOrEqual(2);
    expect(stored.conversation.turns[0]!.title).toBe('#2 from HOST: "the boat is called Mistral"');
    expect(run.logs).toContain(
      'the memory moved from agent-memory to agent-state/memory, where no follower hears it written',
    );

    // And after a restart: found in its place, nothing moved again.
    await run.restart([replyStep('still Mistral')]);
    await run.send('and now?');
    await run.reply('still Mistral');
    expect(JSON.stringify(run.provider.requests.at(-1)!.messages)).toContain(
      'the boat is called Mistral',
    );
    expect(
      run.logs.filter(line => line.startsWith('the memory moved from agent-memory')),
    ).toHaveLength(1);
  });
});

describe('a move into agent-state/ that stopped half-way', () => {
  test('the new name written, the old not yet removed (one value under both): the old name goes, nothing kept aside', async () => {
    const run = await start({
      steps: [replyStep('it is Mistral')],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await guest.storeValue(VERSION_11_MEMORY, 'agent-memory');
        await guest.makeDirectory('agent-state');
        await guest.copy(['agent-memory'], ['agent-state', 'memory']);
      },
    });
    const guest = guestOf(run.host, run.name);
    expect(await guest.has('agent-memory')).toBe(false);
    // Beside the memory, only the names of what the worker was handed (src/daemon/held-formulas.ts).
    expect(
      ((await guest.list('agent-state')) as string[]).filter(name => !isHeldName(name)),
    ).toEqual(['memory']);
    await run.send('what is the boat called?');
    await run.reply('it is Mistral');
    expect(JSON.stringify(run.provider.requests.at(-1)!.messages)).toContain(
      'the boat is called Mistral',
    );
    expect(run.logs.join('\n')).not.toMatch(/kept aside/);
  });
});

describe('an older memory beside the one in agent-state/ (an older version run after the upgrade)', () => {
  test('is kept aside in agent-state/, untouched; the one in its place is used', async () => {
    const current = VERSION_11_MEMORY.replaceAll('Mistral', 'Sirocco').replace(
      '"version":11',
      `"version":${VERSION}`,
    );
    const run = await start({
      steps: [replyStep('it is Sirocco')],
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await guest.makeDirectory('agent-state');
        await guest.storeValue(current, ['agent-state', 'memory']);
        await guest.storeValue(VERSION_11_MEMORY, 'agent-memory');
      },
    });
    const guest = guestOf(run.host, run.name);
    expect(await guest.has('agent-memory')).toBe(false);
    expect(await guest.lookup(['agent-state', 'memory-v11'])).toBe(VERSION_11_MEMORY);
    expect(run.logs).toContain(
      'agent-memory was found beside agent-state/memory (an older version run since?); kept aside as "agent-state/memory-v11", untouched',
    );
    await run.send('what is the boat called?');
    await run.reply('it is Sirocco');
    const asked = JSON.stringify(run.provider.requests.at(-1)!.messages);
    expect(asked).toContain('the boat is called Sirocco');
    expect(asked).not.toContain('Mistral');
  });
});

describe.each(DAEMON_PROFILES)('a guest without agent-state/ (%s daemon)', profile => {
  test('the agent makes it at its first start, and again when the daemon collects it as it is made (f0a46042a)', async () => {
    const run = await start({
      profile,
      steps: [replyStep('pong')],
      // Its tools/ there, as setup (or an earlier release's run) leaves it: the next directory made is agent-state/.
      prepare: async (host, name) => {
        await guestOf(host, name).makeDirectory('tools');
        host.collectDuringNextMakeDirectory();
      },
    });
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(async () => (await storedMemory(run)).conversation.turns.length).toBe(1);
    expect(run.logs).toContain('the daemon collected the agent-state/ just made (attempt 1 of 3)');
    expect(run.logs.join('\n')).not.toMatch(/could not save|saving nothing/);
  });
});
