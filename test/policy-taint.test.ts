/**
 * The boundary's decisions piece by piece (src/policy/, behaviour 9.6–9.10): which paths a call
 * reads and writes, what a call's result brings in that did not come from the HOST, whom a call
 * acts toward, when the taint rule asks the HOST, what a turn has read, and the mark before the
 * model's words to the HOST. The agent-level proofs are agent-untrusted-cannot-steer.test.ts,
 * agent-own-store-out-of-reach.test.ts and agent-trust-stays-the-hosts.test.ts; `npm run mutation
 * -- taint` judges these.
 */
import { describe, expect, test } from 'vitest';
import { decodeCall, type DecodedCall } from '../src/agent-tools/decode-call.js';
import { callPaths } from '../src/policy/call-paths.js';
import { effectOf, untrustedRead, whyAskHost, type Effect } from '../src/policy/side-effects.js';
import { makeTurnTaint } from '../src/policy/turn-taint.js';
import { makeMarkForHost, modelWordsMark } from '../src/policy/model-words.js';
import { isOwnName } from '../src/daemon/own-names.js';

const decode = (name: string, args: unknown): DecodedCall => {
  const decoded = decodeCall(
    { id: 'c1', name, arguments: JSON.stringify(args) },
    text => text,
    () => ({ type: 'object', properties: {} }),
  );
  if (!decoded.ok) throw new Error(decoded.error);
  return decoded;
};

describe('callPaths', () => {
  test('names ops: reads, writes, both for copy, two writes for move', () => {
    expect(callPaths(decode('names', { op: 'list' }))).toEqual({
      reads: [],
      writes: [],
      gives: [],
    });
    expect(callPaths(decode('names', { op: 'lookup', path: 'a/b' }))).toEqual({
      reads: [['a', 'b']],
      writes: [],
      gives: [],
    });
    for (const op of ['has', 'identify', 'inspectCapability', 'list'])
      expect(callPaths(decode('names', { op, path: ['x'] })).reads).toEqual([['x']]);
    expect(callPaths(decode('names', { op: 'copy', path: 'a', to: 'b' }))).toEqual({
      reads: [['a']],
      writes: [['b']],
      gives: [],
    });
    expect(callPaths(decode('names', { op: 'move', path: 'a', to: 'b/c' }))).toEqual({
      reads: [],
      writes: [['a'], ['b', 'c']],
      gives: [],
    });
    for (const op of ['remove', 'makeDirectory'])
      expect(callPaths(decode('names', { op, path: 'a' }))).toEqual({
        reads: [],
        writes: [['a']],
        gives: [],
      });
    expect(callPaths(decode('names', { op: 'store', path: 'a', value: 1 }))).toEqual({
      reads: [],
      writes: [['a']],
      gives: [],
    });
    expect(callPaths(decode('names', { op: 'help' }))).toEqual({
      reads: [],
      writes: [],
      gives: [],
    });
  });

  test('mail ops, messages and evaluate; a FaeTool touches no path', () => {
    expect(
      callPaths(decode('mail', { op: 'adopt', messageNumber: 1, edgeName: 'e', petName: 'p/q' })),
    ).toEqual({ reads: [], writes: [['p', 'q']], gives: [] });
    expect(
      callPaths(
        decode('mail', { op: 'adoptTool', messageNumber: 1, edgeName: 'e', toolName: 't' }),
      ),
    ).toEqual({ reads: [], writes: [], gives: [], adoptsTool: 't' });
    expect(callPaths(decode('mail', { op: 'resolve', messageNumber: 1, path: 'v' }))).toEqual({
      reads: [['v']],
      writes: [],
      gives: [['v']],
    });
    expect(
      callPaths(
        decode('mail', {
          op: 'request',
          recipient: 'HOST',
          description: 'd',
          responseName: 'report',
        }),
      ),
    ).toEqual({ reads: [], writes: [['report']], gives: [] });
    expect(
      callPaths(decode('mail', { op: 'request', recipient: 'HOST', description: 'd' })),
    ).toEqual({ reads: [], writes: [], gives: [] });
    expect(callPaths(decode('mail', { op: 'listMessages' }))).toEqual({
      reads: [],
      writes: [],
      gives: [],
    });
    expect(
      callPaths(
        decode('reply', {
          messageNumber: 1,
          strings: ['a', 'b', 'c'],
          edgeNames: ['x', 'y'],
          petNames: ['a/b', ['c']],
        }),
      ).reads,
    ).toEqual([['a', 'b'], ['c']]);
    expect(
      callPaths(
        decode('send', {
          recipient: 'bob',
          strings: ['a', ''],
          edgeNames: ['x'],
          petNames: ['memo'],
        }),
      ).reads,
    ).toEqual([['memo']]);
    expect(
      callPaths(
        decode('evaluate', {
          source: '1',
          codeNames: ['a'],
          petNamePaths: ['p/q'],
          resultName: 'out/sum',
        }),
      ),
    ).toEqual({ reads: [['p', 'q']], writes: [['out', 'sum']], gives: [['p', 'q']] });
    expect(callPaths(decode('schedule', { note: 'n', delaySeconds: 5 }))).toEqual({
      reads: [],
      writes: [],
      gives: [],
    });
    expect(callPaths(decode('fetch', { path: 'agent-history' }))).toEqual({
      reads: [],
      writes: [],
      gives: [],
    });
    // What a helper is granted is given: each of its names is judged as a path.
    expect(
      callPaths(decode('mail', { op: 'helper', description: 'd', grant: ['math', 'a/b'] })).gives,
    ).toEqual([['math'], ['a', 'b']]);
  });
});

describe('isOwnName', () => {
  test('the memory, memories kept aside, the history and the tool givers; nothing else', () => {
    for (const name of ['agent-memory', 'agent-memory-v6', 'agent-history', 'agent-tool-givers'])
      expect(isOwnName(name)).toBe(true);
    for (const name of ['agent', 'agent-memo', 'agent-history2', 'tools', 'my-agent-memory'])
      expect(isOwnName(name)).toBe(false);
  });
});

describe('untrustedRead', () => {
  test("a FaeTool's result, and the built-in ops that bring in others' content", () => {
    expect(untrustedRead(decode('fetch', {}))).toBe('the result of the tool fetch');
    expect(untrustedRead(decode('names', { op: 'lookup', path: 'x' }))).toBe(
      'a value from the directory',
    );
    expect(untrustedRead(decode('lookup', { petNamePath: ['x'] }))).toBe(
      'a value from the directory',
    );
    expect(untrustedRead(decode('names', { op: 'inspectCapability', path: 'x' }))).toMatch(/help/);
    expect(untrustedRead(decode('mail', { op: 'listMessages' }))).toMatch(/inbox/);
    expect(untrustedRead(decode('mail', { op: 'messageHistory', messageNumber: 1 }))).toMatch(
      /history/,
    );
    expect(untrustedRead(decode('mail', { op: 'recall', query: 'q' }))).toMatch(/kept history/);
  });

  test('the agent-owned results bring in nothing', () => {
    for (const call of [
      decode('names', { op: 'list' }),
      decode('names', { op: 'has', path: 'x' }),
      decode('mail', { op: 'dismiss', messageNumber: 1 }),
      decode('reply', { messageNumber: 1, strings: ['a'] }),
      decode('schedule', { note: 'n', delaySeconds: 5 }),
    ])
      expect(untrustedRead(call)).toBeUndefined();
  });
});

describe('effectOf', () => {
  test('whom each call acts toward', () => {
    expect(effectOf(decode('send', { recipient: 'alice', strings: ['x'] }))).toEqual({
      kind: 'to',
      name: 'alice',
      what: 'sends a message',
    });
    expect(effectOf(decode('reply', { messageNumber: 3, strings: ['x'] }))).toEqual({
      kind: 'message',
      number: 3n,
      what: 'replies',
    });
    expect(effectOf(decode('mail', { op: 'request', recipient: 'bob', description: 'd' }))).toEqual(
      { kind: 'to', name: 'bob', what: 'makes a request' },
    );
    for (const op of ['resolve', 'reject'])
      expect(effectOf(decode('mail', { op, messageNumber: 4, path: 'v' }))).toEqual({
        kind: 'message',
        number: 4n,
        what: 'answers a request',
      });
    expect(
      effectOf(decode('mail', { op: 'adopt', messageNumber: 5, edgeName: 'e', petName: 'p' })),
    ).toEqual({ kind: 'adopt', number: 5n });
    expect(
      effectOf(decode('mail', { op: 'adoptTool', messageNumber: 6, edgeName: 'e', toolName: 't' })),
    ).toEqual({ kind: 'adopt', number: 6n });
    for (const op of ['store', 'remove', 'move', 'copy', 'makeDirectory'])
      expect(effectOf(decode('names', { op, path: 'a', to: 'b', value: 1 }))).toEqual({
        kind: 'write',
      });
  });

  test('reading, dismissing, a FaeTool and a wake-up act toward nobody', () => {
    for (const call of [
      decode('names', { op: 'lookup', path: 'x' }),
      decode('mail', { op: 'dismiss', messageNumber: 1 }),
      decode('mail', { op: 'listMessages' }),
      decode('fetch', { url: 'u' }),
      decode('schedule', { note: 'n', delaySeconds: 5 }),
      decode('evaluate', { source: '1', resultName: 'r' }),
    ])
      expect(effectOf(call)).toBeUndefined();
  });
});

describe('whyAskHost', () => {
  const send: Effect = { kind: 'to', name: 'alice', what: 'sends a message' };
  const adopt: Effect = { kind: 'adopt', number: 1n };
  const write: Effect = { kind: 'write' };
  const ask = (options: Partial<Parameters<typeof whyAskHost>[0]>) =>
    whyAskHost({
      read: 'the result of the tool fetch',
      peerTurn: false,
      gated: false,
      effect: undefined,
      party: undefined,
      ...options,
    });

  test('a turn that read nothing untrusted is never slowed, even for a gated call', () => {
    for (const effect of [send, adopt, write, undefined])
      expect(ask({ read: undefined, effect, party: 'other', gated: true, peerTurn: true })).toBe(
        undefined,
      );
  });

  test('once tainted: toward others asks, toward the sender or the HOST goes', () => {
    expect(ask({ effect: send, party: 'other' })).toBe(
      'this turn has read the result of the tool fetch, which did not come from the HOST, and it sends a message toward someone other than the sender served and the HOST',
    );
    expect(ask({ effect: send, party: undefined })).toMatch(/toward someone other/);
    expect(ask({ effect: send, party: 'sender' })).toBeUndefined();
    expect(ask({ effect: send, party: 'host' })).toBeUndefined();
    expect(ask({ effect: send, party: 'sender', peerTurn: true })).toBeUndefined();
    expect(ask({ effect: undefined, party: 'other' })).toBeUndefined();
    // No such recipient: the call can only fail, with its own teaching error.
    expect(ask({ effect: send, party: 'nobody', gated: true, peerTurn: true })).toBeUndefined();
  });

  test('a gated call asks once tainted, whoever it reaches', () => {
    expect(ask({ gated: true, party: 'host', effect: send })).toBe(
      'this turn has read the result of the tool fetch, which did not come from the HOST, and LAL_TOOLS_APPROVE gates this tool',
    );
    expect(ask({ gated: true })).toMatch(/LAL_TOOLS_APPROVE/);
  });

  test("adopting: in a peer's turn goes ahead (its own names, its own message); in the HOST's, unless the HOST sent it", () => {
    expect(ask({ effect: adopt, party: 'sender', peerTurn: true })).toBeUndefined();
    expect(ask({ effect: adopt, party: 'host' })).toBeUndefined();
    expect(ask({ effect: adopt, party: 'other' })).toMatch(/adopts what someone else sent$/);
    expect(ask({ effect: adopt, party: 'sender' })).toMatch(/adopts what someone else sent$/);
  });

  test("writing pet names never asks: a peer's turn writes among its own names (behaviour 9.6)", () => {
    expect(ask({ effect: write, peerTurn: true })).toBeUndefined();
    expect(ask({ effect: write })).toBeUndefined();
  });
});

describe('makeTurnTaint', () => {
  const trusts = (sender: string) => sender === 'alice';

  test("a peer's turn starts tainted by its message; the HOST's and a trusted sender's do not", () => {
    const peer = makeTurnTaint({ number: 4n, sender: 'mallory' }, 'HOST', trusts);
    expect(peer.peerTurn).toBe(true);
    expect(peer.read()).toBe('message #4 from mallory');
    for (const sender of ['HOST', 'alice']) {
      const turn = makeTurnTaint({ number: 1n, sender }, 'HOST', trusts);
      expect(turn.peerTurn).toBe(false);
      expect(turn.read()).toBeUndefined();
    }
    const wake = makeTurnTaint(undefined, 'HOST', trusts);
    expect(wake.peerTurn).toBe(false);
    expect(wake.read()).toBeUndefined();
  });

  test('keeps the first untrusted content read', () => {
    const turn = makeTurnTaint({ number: 1n, sender: '@host' }, '@host', trusts);
    turn.note('the result of the tool fetch');
    turn.note('the inbox');
    expect(turn.read()).toBe('the result of the tool fetch');
    const peer = makeTurnTaint({ number: 2n, sender: 'bob' }, '@host', trusts);
    peer.note('the inbox');
    expect(peer.read()).toBe('message #2 from bob');
  });
});

describe("the mark before the model's words to the HOST", () => {
  test('says whom the turn serves, what it read, and that the words are the model', () => {
    expect(
      modelWordsMark('Fae', { number: 3n, sender: 'mallory' }, 'message #3 from mallory'),
    ).toBe(
      "[Fae: the model's words, written while serving message #3 from mallory, after reading message #3 from mallory; not one of my approval requests] ",
    );
    expect(modelWordsMark('Lal', undefined, undefined)).toBe(
      "[Lal: the model's words, written while not serving any message; not one of my approval requests] ",
    );
  });

  const request: Effect = { kind: 'to', name: 'HOST', what: 'makes a request' };
  const send: Effect = { kind: 'to', name: 'HOST', what: 'sends a message' };
  const markIn = async (
    sender: string,
    read: string | undefined,
    effect: Effect,
    party: 'host' | 'other',
  ) => {
    const turn = makeTurnTaint({ number: 1n, sender }, 'HOST', () => false);
    if (read !== undefined) turn.note(read);
    const mark = makeMarkForHost({
      agentName: 'Lal',
      origin: { number: 1n, sender },
      turn,
      parties: { partyOf: () => Promise.resolve(party) },
    });
    return mark(effect);
  };

  test("in a peer's turn everything to the HOST is marked; nothing to others", async () => {
    expect(await markIn('mallory', undefined, send, 'host')).toMatch(/^\[Lal: the model's words/);
    expect(await markIn('mallory', undefined, request, 'host')).toMatch(/from mallory/);
    expect(await markIn('mallory', undefined, send, 'other')).toBeUndefined();
  });

  test("in the HOST's turn only a request after untrusted content is marked", async () => {
    expect(await markIn('HOST', undefined, request, 'host')).toBeUndefined();
    expect(await markIn('HOST', 'the inbox', send, 'host')).toBeUndefined();
    expect(await markIn('HOST', 'the inbox', request, 'host')).toMatch(/after reading the inbox/);
    expect(await markIn('HOST', 'the inbox', request, 'other')).toBeUndefined();
  });
});
