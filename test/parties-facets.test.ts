/**
 * The parts of a party's facet, each alone (docs/behaviour.md 9.6): whom a
 * turn serves, where a party's names are, which of the HOST's tools it was
 * shared, its schedules, the guest powers it holds (over a plain directory
 * double), and the facet made from them. The agent-level proof, through
 * make() with a peer on both daemons, is test/agent-party-facets.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { HOST_PARTY, partyDirectory, partyOf } from '../src/parties/party.js';
import { readSharedTools } from '../src/parties/shared-tools.js';
import { partySchedules } from '../src/parties/party-schedules.js';
import { makePeerPowers } from '../src/parties/peer-powers.js';
import { channelFacet, makeFacetMaker, type FacetParts } from '../src/parties/facets.js';
import type { ScheduleArgs } from '../src/schedule/wake-ups.js';
import { BUILTIN_DEFINITIONS, BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { offeredOps } from '../src/agent-tools/tool-groups.js';
import { readToolPolicy } from '../src/policy/tool-policy.js';
import type { ToolSchema } from '../providers/types.js';
import type { ToolRegistry } from '../src/agent-tools/fae-tool-registry.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

describe('party', () => {
  test('the HOST serves its own turns and the agent’s own work; anyone else is a party of its own', () => {
    expect(partyOf(undefined, 'HOST')).toBe(HOST_PARTY);
    expect(partyOf({ sender: '@host' }, '@host')).toBe(HOST_PARTY);
    expect(partyOf({ sender: 'HOST' }, '@host')).toEqual({ kind: 'peer', name: 'HOST' });
    expect(partyOf({ sender: 'mallory' }, 'HOST')).toEqual({ kind: 'peer', name: 'mallory' });
  });

  test("a party's directory is its name made a pet name", () => {
    expect(partyDirectory('mallory')).toEqual(['agent-parties', 'mallory']);
    expect(partyDirectory('unnamed 9a7fd267')).toEqual(['agent-parties', 'unnamed-9a7fd267']);
    expect(partyDirectory('Bob on another daemon (node 3c1d)')).toEqual([
      'agent-parties',
      'bob-on-another-daemon-node-3c1d',
    ]);
    expect(partyDirectory('--')).toEqual(['agent-parties', 'party']);
  });
});

describe('shared tools', () => {
  test('none by default, and help() says so', () => {
    const shared = readSharedTools({});
    expect(shared.sharedWith('mallory', 'readFile')).toBe(false);
    expect(shared.describe()).toEqual([
      "none: other parties are offered none of the HOST's tools (LAL_SHARED_TOOLS)",
    ]);
  });

  test('a name shares with everyone, party:name with that party, * every tool', () => {
    const shared = readSharedTools({
      LAL_SHARED_TOOLS: ' timestamp , alice:readFile,, bob:*, :math, carol: ',
    });
    expect(shared.sharedWith('mallory', 'timestamp')).toBe(true);
    expect(shared.sharedWith('alice', 'readFile')).toBe(true);
    expect(shared.sharedWith('mallory', 'readFile')).toBe(false);
    expect(shared.sharedWith('bob', 'runCommand')).toBe(true);
    expect(shared.sharedWith('alice', 'runCommand')).toBe(false);
    // An item with an empty party or tool names nothing.
    expect(shared.sharedWith('', 'math')).toBe(false);
    expect(shared.sharedWith('carol', '')).toBe(false);
    expect(shared.describe()).toEqual([
      'with everyone: timestamp',
      'with alice: readFile',
      'with bob: *',
    ]);
    expect(readSharedTools({ LAL_SHARED_TOOLS: 'alice:a,alice:b' }).describe()).toEqual([
      'with alice: a, b',
    ]);
  });
});

describe('party schedules', () => {
  const made: ScheduleArgs[] = [];
  const labels: (string | undefined)[] = [];
  const wakeUps = {
    schedule: (args: ScheduleArgs, _origin: unknown, read?: string) => {
      made.push(args);
      labels.push(read);
      return harden({ scheduled: 'w1' });
    },
  };
  const origin = { number: 3n, sender: 'mallory' };
  const args = (every: string | undefined): ScheduleArgs => ({
    note: 'n',
    delaySeconds: undefined,
    at: undefined,
    cancel: undefined,
    every,
  });
  const mine = partySchedules(wakeUps, 'mallory', ['agent-parties', 'mallory']);

  test('a trigger waits for the party’s own mail and watches its own names; the rest passes as asked', () => {
    made.length = 0;
    expect(() => mine.schedule(args('mail from alice'), origin)).toThrow(
      'every: "mail from alice": serving mallory, a trigger waits for mail from mallory',
    );
    mine.schedule(args('mail from mallory'), origin, 'message #3 from mallory');
    mine.schedule(args('Change in  inbox'), origin);
    mine.schedule(args('2h'), origin);
    mine.schedule(args(undefined), origin, 'a page');
    expect(made.map(each => each.every)).toEqual([
      'mail from mallory',
      'Change in  agent-parties/mallory/inbox',
      '2h',
      undefined,
    ]);
    // The label of the turn that set it goes with it (part B's word labels).
    expect(labels).toEqual(['message #3 from mallory', undefined, undefined, 'a page']);
  });
});

/** A guest's directory and inbox as plain data, with the methods the peer powers call. */
const directoryDouble = () => {
  const names = new Map<string, unknown>();
  const dirs = new Set<string>();
  const calls: unknown[][] = [];
  const key = (path: readonly string[]) => path.join('/');
  const need = (path: readonly string[]) => {
    const parent = path.slice(0, -1);
    if (parent.length > 0 && !dirs.has(key(parent)))
      throw new Error(`Unknown pet name: ${JSON.stringify(parent.at(-1))}`);
  };
  const messages = [
    { number: 1n, from: 'id-mallory' },
    { number: 2n, from: 'id-host' },
  ];
  const asArray = (nameOrPath: string | string[]) =>
    typeof nameOrPath === 'string' ? [nameOrPath] : nameOrPath;
  // A walk through a name that is not there fails, as the daemon's does.
  const walk = { fails: false };
  const powers = {
    has: (...path: string[]) => {
      if (walk.fails) throw new Error('Unknown pet name');
      return dirs.has(key(path)) || names.has(key(path));
    },
    identify: (...path: string[]) => (names.has(key(path)) ? `id:${key(path)}` : undefined),
    list: (...path: string[]) => {
      if (path.length > 0 && !dirs.has(key(path))) throw new Error('Unknown pet name');
      const prefix = path.length === 0 ? '' : `${key(path)}/`;
      return [...dirs, ...names.keys()]
        .filter(name => name.startsWith(prefix) && !name.slice(prefix.length).includes('/'))
        .map(name => name.slice(prefix.length));
    },
    listIdentifiers: (...path: string[]) => [key(path)],
    lookup: (path: string | string[]) => {
      const at = key(asArray(path));
      if (!names.has(at)) throw new Error(`Unknown pet name: ${JSON.stringify(at)}`);
      return names.get(at);
    },
    makeDirectory: (path: string | string[]) => {
      need(asArray(path));
      dirs.add(key(asArray(path)));
    },
    storeValue: (value: unknown, path: string | string[]) => {
      need(asArray(path));
      names.set(key(asArray(path)), value);
    },
    remove: (...path: string[]) => names.delete(key(path)),
    move: (from: string[], to: string[]) => calls.push(['move', from, to]),
    copy: (from: string[], to: string[]) => calls.push(['copy', from, to]),
    listMessages: () => messages,
    send: (...args: unknown[]) => calls.push(['send', ...args]),
    reply: (...args: unknown[]) => calls.push(['reply', ...args]),
    dismiss: (number: bigint) => calls.push(['dismiss', number]),
    adopt: (...args: unknown[]) => calls.push(['adopt', ...args]),
    resolve: (...args: unknown[]) => calls.push(['resolve', ...args]),
    reject: (...args: unknown[]) => calls.push(['reject', ...args]),
    messageHistory: (number: bigint) => [{ number }],
    help: (method?: string) => `help on ${method}`,
  };
  const nameOf = async (id: unknown) => (id === 'id-host' ? 'HOST' : 'mallory');
  return { powers, names, dirs, calls, nameOf, walk };
};

describe('peer powers', () => {
  const make = () => {
    const double = directoryDouble();
    const peer = makePeerPowers({
      powers: double.powers as unknown as PowersRef,
      name: 'mallory',
      hostName: 'HOST',
      nameOf: double.nameOf,
    });
    return { ...double, peer };
  };

  test('before the party has names, its directory is empty and nothing is found', async () => {
    const { peer, names } = make();
    names.set('vault-code', '7311');
    expect(await peer.list()).toEqual([]);
    expect(await peer.has('vault-code')).toBe(false);
    await expect(peer.lookup('vault-code')).rejects.toThrow('Unknown pet name: "vault-code"');
    await expect(peer.list('x')).rejects.toThrow('Unknown pet name: "x"');
    await expect(peer.identify('vault-code')).rejects.toThrow('Unknown pet name');
    await expect(peer.listIdentifiers('vault-code')).rejects.toThrow('Unknown pet name');
    await expect(peer.remove('vault-code')).rejects.toThrow('Unknown pet name');
    await expect(peer.move(['vault-code'], ['x'])).rejects.toThrow('Unknown pet name');
    await expect(peer.copy(['vault-code'], ['x'])).rejects.toThrow('Unknown pet name');
  });

  test('a write makes its directory; every path is read inside it', async () => {
    const { peer, names, dirs, calls } = make();
    names.set('vault-code', '7311');
    await peer.storeValue('mine', 'note');
    expect(dirs).toEqual(new Set(['agent-parties', 'agent-parties/mallory']));
    expect(names.get('agent-parties/mallory/note')).toBe('mine');
    // Made once: a second write does not make it again.
    await peer.makeDirectory(['box']);
    expect(dirs.has('agent-parties/mallory/box')).toBe(true);
    expect(await peer.list()).toEqual(['box', 'note']);
    expect(await peer.has('note')).toBe(true);
    expect(await peer.has('vault-code')).toBe(false);
    expect(await peer.lookup('note')).toBe('mine');
    expect(await peer.lookup(['note'])).toBe('mine');
    expect(await peer.identify('note')).toBe('id:agent-parties/mallory/note');
    expect(await peer.listIdentifiers('box')).toEqual(['agent-parties/mallory/box']);
    await peer.copy(['note'], ['box', 'n']);
    await peer.move(['note'], ['n2']);
    expect(calls).toEqual([
      ['copy', ['agent-parties', 'mallory', 'note'], ['agent-parties', 'mallory', 'box', 'n']],
      ['move', ['agent-parties', 'mallory', 'note'], ['agent-parties', 'mallory', 'n2']],
    ]);
    await peer.remove('note');
    expect(names.has('agent-parties/mallory/note')).toBe(false);
  });

  test('a path through a name that is not there is not had', async () => {
    const { peer, walk } = make();
    await peer.makeDirectory('box');
    expect(await peer.has('box')).toBe(true);
    walk.fails = true;
    expect(await peer.has('box', 'x')).toBe(false);
  });

  test('its inbox is the party’s messages; another’s message is no message', async () => {
    const { peer, calls } = make();
    expect(await peer.listMessages()).toEqual([{ number: 1n, from: 'id-mallory' }]);
    await peer.reply(1n, ['a', ''], ['e'], ['x']);
    await peer.dismiss(1n);
    await peer.resolve(1n, 'x');
    await peer.reject(1n, 'no');
    await peer.adopt(1n, 'e', 'got');
    expect(await peer.messageHistory(1n)).toEqual([{ number: 1n }]);
    expect(calls).toEqual([
      ['reply', 1n, ['a', ''], ['e'], [['agent-parties', 'mallory', 'x']]],
      ['dismiss', 1n],
      ['resolve', 1n, ['agent-parties', 'mallory', 'x']],
      ['reject', 1n, 'no'],
      ['adopt', 1n, 'e', ['agent-parties', 'mallory', 'got']],
    ]);
    for (const act of [
      () => peer.reply(2n, ['a'], [], []),
      () => peer.dismiss(2n),
      () => peer.resolve(2n, 'x'),
      () => peer.reject(2n),
      () => peer.adopt(2n, 'e', 'p'),
      () => peer.messageHistory(2n),
    ])
      await expect(act()).rejects.toThrow('No such message #2 from mallory');
    expect(calls).toHaveLength(5);
  });

  test('mail goes to the party or to the HOST, with attachments among its names', async () => {
    const { peer, calls } = make();
    await peer.send('mallory', ['hi', ''], ['e'], ['a/b']);
    await peer.send(['HOST'], ['note'], [], []);
    expect(calls).toEqual([
      ['send', 'mallory', ['hi', ''], ['e'], [['agent-parties', 'mallory', 'a', 'b']]],
      ['send', 'HOST', ['note'], [], []],
    ]);
    await expect(peer.send('alice', ['x'], [], [])).rejects.toThrow(
      'No recipient named "alice": serving mallory, you write to mallory or HOST',
    );
    expect(peer.recipient('mallory')).toBe('mallory');
    expect(peer.directory()).toEqual(['agent-parties', 'mallory']);
  });

  test('its help names what it holds; help on a method is the daemon’s', async () => {
    const { peer } = make();
    expect(peer.help()).toMatch(/^Serving mallory: your pet names are mallory's own/);
    expect(await peer.help('send')).toBe('help on send');
  });
});

describe('facets', () => {
  const fetchSchema: ToolSchema = {
    type: 'function',
    function: { name: 'fetch', description: 'Fetch.', parameters: { type: 'object' } },
  };
  const registry = {
    schemas: () => [fetchSchema],
    find: (name: string) =>
      name === 'fetch' ? { name, petName: 'fetch', schema: fetchSchema, tool: {} } : undefined,
    offeredBy: () => [{ name: 'fetch', petName: 'fetch', givenBy: undefined }],
  } as unknown as ToolRegistry;
  const asked: unknown[] = [];
  const parts = (env: Record<string, string> = {}): FacetParts => ({
    powers: directoryDouble().powers as unknown as PowersRef,
    env,
    hostName: 'HOST',
    nameOf: async () => 'mallory',
    persona: 'fae',
    policy: readToolPolicy({}),
    registry,
    builtins: BUILTIN_SCHEMAS,
    requests: {
      request: ask => {
        asked.push(ask);
        return harden({ status: 'pending' });
      },
    },
    proposals: {
      propose: proposal => {
        asked.push(proposal);
        return harden({ status: 'pending' });
      },
    },
  });
  const names = (schemas: readonly ToolSchema[]) => schemas.map(schema => schema.function.name);
  const mailOps = (schemas: readonly ToolSchema[]) =>
    schemas.find(schema => schema.function.name === 'mail')?.function.parameters.properties?.op
      ?.enum;

  test("the HOST's facet is the agent's: every tool, adoptTool, the prompt naming its powers", () => {
    const facet = makeFacetMaker(parts()).facetFor({ sender: 'HOST' });
    expect(facet.party).toBe(HOST_PARTY);
    expect(names(facet.offer())).toContain('fetch');
    expect(mailOps(facet.offer())).toContain('adoptTool');
    expect(names(facet.held())).toContain('fetch');
    expect(facet.holds(['adoptTool', 'mail'])).toBe(true);
    expect(facet.tools).toBe(registry);
    expect(facet.prompt).toMatch(/AGENT \(your powers\)/);
    expect(makeFacetMaker(parts()).facetFor(undefined).party).toBe(HOST_PARTY);
  });

  test("another party's holds no tools/, no adoptTool, only the tools shared with it", () => {
    const facet = makeFacetMaker(parts()).facetFor({ sender: 'mallory' });
    expect(facet.party).toEqual({ kind: 'peer', name: 'mallory' });
    expect(names(facet.offer())).not.toContain('fetch');
    expect(names(facet.held())).not.toContain('fetch');
    expect(mailOps(facet.offer())).not.toContain('adoptTool');
    expect(mailOps(facet.held())).not.toContain('adoptTool');
    expect(facet.holds(['adoptTool', 'mail'])).toBe(false);
    expect(facet.holds(['lookup', 'names'])).toBe(true);
    expect(facet.holds(['fetch'])).toBe(false);
    expect(facet.holds(['toolbox'])).toBe(false);
    expect(facet.tools.find('fetch')).toBeUndefined();
    expect(facet.tools.schemas()).toEqual([]);
    expect(facet.tools.offeredBy()).toEqual([]);
    expect(facet.prompt).not.toMatch(/AGENT|MAIL|SELF|adoptTool/);
    const shared = makeFacetMaker(parts({ LAL_SHARED_TOOLS: 'mallory:fetch' })).facetFor({
      sender: 'mallory',
    });
    expect(names(shared.offer())).toContain('fetch');
    expect(names(shared.held())).toContain('fetch');
    expect(shared.holds(['fetch'])).toBe(true);
    expect(shared.tools.find('fetch')?.name).toBe('fetch');
    expect(shared.tools.offeredBy().map(tool => tool.name)).toEqual(['fetch']);
    expect(makeFacetMaker(parts()).describe()).toHaveLength(1);
  });

  test("what a built-in's record says only the HOST holds, another party's turn holds by no path: not offered, not in what a helper is granted from, not run by any name", () => {
    // Read from the records themselves (`heldBy`), so an op added later is judged here as it says.
    const calls = BUILTIN_DEFINITIONS.flatMap(definition =>
      definition.ops === undefined
        ? [{ name: definition.name, names: [definition.name], heldBy: definition.heldBy }]
        : Object.entries(definition.ops).map(([op, record]) => ({
            name: op,
            names: [op, definition.name],
            heldBy: record.heldBy,
          })),
    );
    const hostOnly = calls.filter(call => call.heldBy === 'host').map(call => call.name);
    expect(hostOnly).toContain('adoptTool');
    // The calls a list of schemas offers: a group's ops, or the tool itself.
    const offeredCalls = (schemas: readonly ToolSchema[]) =>
      schemas.flatMap(schema => offeredOps(schema) ?? [schema.function.name]);
    const everyCall = calls.map(call => call.name);
    const maker = makeFacetMaker(parts({ LAL_SHARED_TOOLS: '*' }));
    const host = maker.facetFor({ sender: 'HOST' });
    // A wake-up the party set, and a helper its turn makes, hold the party's facet: the same one.
    const peer = maker.facetFor({ sender: 'mallory' });
    expect(offeredCalls(host.offer())).toEqual(expect.arrayContaining(everyCall));
    for (const facet of [peer, maker.facetFor({ sender: 'alice' })]) {
      for (const schemas of [facet.offer(), facet.held()]) {
        const offered = offeredCalls(schemas);
        expect(offered.filter(name => hostOnly.includes(name))).toEqual([]);
        expect(offered).toEqual(
          expect.arrayContaining(everyCall.filter(name => !hostOnly.includes(name))),
        );
      }
      for (const call of calls) {
        const held = call.heldBy === 'anyone';
        expect(facet.holds(call.names), call.name).toBe(held);
        expect(facet.holds([call.name]), call.name).toBe(held);
        expect(host.holds(call.names), call.name).toBe(true);
      }
    }
  });

  test("a channel's holds nothing: no tool (whatever the HOST shares: it reads no setting), and its prompt says so", () => {
    const facet = channelFacet('fae', 'general');
    expect(facet.party).toEqual({ kind: 'channel', name: 'general' });
    expect(facet.offer()).toEqual([]);
    expect(facet.holds(['fetch'])).toBe(false);
    expect(facet.holds(['mail'])).toBe(false);
    expect(facet.prompt).toMatch(/^You are Fae, a member of the channel "general"/);
    expect(facet.prompt).toMatch(/You hold no tools here/);
    expect(facet.prompt).not.toMatch(/AGENT|MAIL|SELF|HOST/);
  });

  test("its requests go to the party or the HOST, kept among its names; its code's endowments are its own", async () => {
    asked.length = 0;
    const facet = makeFacetMaker(parts()).facetFor({ number: 1n, sender: 'mallory' } as never);
    const ask = { description: 'd', responseName: 'r', origin: undefined };
    await facet.requests.request({ ...ask, recipient: 'HOST' });
    await expect(facet.requests.request({ ...ask, recipient: 'alice' })).rejects.toThrow(
      'No recipient named "alice"',
    );
    await expect(
      facet.proposals.propose({
        source: 'x',
        codeNames: ['a', 'b'],
        petNamePaths: ['AGENT', ['vault', 'code']],
        resultName: 'out',
        workerName: undefined,
        origin: undefined,
      }),
    ).rejects.toThrow('Unknown pet names: "AGENT", "vault/code"');
    await expect(
      facet.proposals.propose({
        source: 'x',
        codeNames: ['a'],
        petNamePaths: ['AGENT'],
        resultName: 'out',
        workerName: undefined,
        origin: undefined,
      }),
    ).rejects.toThrow('Unknown pet name: "AGENT"');
    await facet.proposals.propose({
      source: 'x',
      codeNames: [],
      petNamePaths: [],
      resultName: 'out',
      workerName: undefined,
      origin: undefined,
    });
    expect(asked).toEqual([
      { ...ask, recipient: 'HOST', directory: ['agent-parties', 'mallory'] },
      expect.objectContaining({ resultName: 'out', directory: ['agent-parties', 'mallory'] }),
    ]);
  });

  test("the HOST's requests say at once when there is no such recipient", async () => {
    asked.length = 0;
    const facet = makeFacetMaker(parts()).facetFor(undefined);
    const ask = { description: 'd', responseName: undefined, origin: undefined };
    await expect(facet.requests.request({ ...ask, recipient: 'nobody/here' })).rejects.toThrow(
      'No recipient named "nobody/here"',
    );
    expect(asked).toEqual([]);
  });
});
