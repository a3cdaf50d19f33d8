/**
 * What of the agent's own a call gives (docs/behaviour.md 9.6), judged by
 * identity along every path its record says it gives: the agent itself, its
 * mail, tools/ or a tool in it, however the path is spelt; any other value,
 * or a call that gives nothing, is not.
 */
import { describe, expect, test } from 'vitest';
import { decodeCall, type DecodedCall } from '../src/agent-tools/decode-call.js';
import { makePowersGiven } from '../src/policy/powers-given.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const decode = (name: string, args: unknown): DecodedCall => {
  const decoded = decodeCall({ id: 'c1', name, arguments: JSON.stringify(args) }, text => text);
  if (!decoded.ok) throw new Error(decoded.error);
  return decoded;
};

/** A directory whose names lead to these ids (a path: its names joined by "/"). */
const directory = (ids: Record<string, string>) =>
  harden({
    identify: (...path: string[]) => {
      const id = ids[path.join('/')];
      if (id === undefined) throw new Error('Unknown pet name');
      return id;
    },
  }) as unknown as PowersRef;

const agentIds = {
  AGENT: 'id-agent',
  MAIL: 'id-mail',
  tools: 'id-tools',
  'tools/fetch': 'id-fetch',
  me: 'id-agent',
  'me/tools': 'id-tools',
  inbox: 'id-mail',
  'vault-code': 'id-vault',
  'me/vault-code': 'id-vault',
};
const given = makePowersGiven({
  powers: directory(agentIds),
  names: { agent: 'AGENT', mail: 'MAIL' },
});
const send = (...petNames: string[]) =>
  decode('send', {
    recipient: 'alice',
    strings: ['x', ...petNames.map(() => '')],
    edgeNames: petNames.map((_, index) => `e${index}`),
    petNames,
  });

describe('powers given', () => {
  test('the agent itself, its mail, tools/ and a tool in it, by any name', async () => {
    expect(await given.given(send('AGENT'))).toBe('"AGENT" (the agent itself)');
    expect(await given.given(send('me'))).toBe('"me" (the agent itself)');
    expect(await given.given(send('inbox'))).toBe('"inbox" (the agent\'s mail)');
    expect(await given.given(send('MAIL'))).toBe('"MAIL" (the agent\'s mail)');
    expect(await given.given(send('tools'))).toBe('"tools" (tools/, the HOST\'s tools)');
    expect(await given.given(send('tools/fetch'))).toBe(
      '"tools/fetch" (tools/, the HOST\'s tools)',
    );
    expect(await given.given(send('me/tools'))).toBe('"me/tools" (tools/, the HOST\'s tools)');
    expect(await given.given(send('vault-code', 'AGENT', 'MAIL'))).toBe(
      '"AGENT" (the agent itself), "MAIL" (the agent\'s mail)',
    );
  });

  test('the HOST’s other values, names that are not there, and calls that give nothing are not', async () => {
    expect(await given.given(send('vault-code'))).toBeUndefined();
    expect(await given.given(send('me/vault-code'))).toBeUndefined();
    expect(await given.given(send('nowhere'))).toBeUndefined();
    expect(await given.given(send())).toBeUndefined();
    expect(await given.given(decode('names', { op: 'lookup', path: 'AGENT' }))).toBeUndefined();
  });

  test('every op that gives: resolve, evaluate, a helper’s grant, reply', async () => {
    expect(
      await given.given(decode('mail', { op: 'resolve', messageNumber: 1, path: 'me' })),
    ).toMatch(/the agent itself/);
    expect(
      await given.given(
        decode('evaluate', {
          source: 'x',
          codeNames: ['a'],
          petNamePaths: ['inbox'],
          resultName: 'r',
        }),
      ),
    ).toMatch(/the agent's mail/);
    expect(
      await given.given(decode('mail', { op: 'helper', description: 'd', grant: ['tools'] })),
    ).toMatch(/tools\//);
    expect(
      await given.given(
        decode('reply', {
          messageNumber: 1,
          strings: ['a', ''],
          edgeNames: ['e'],
          petNames: ['me'],
        }),
      ),
    ).toMatch(/the agent itself/);
  });

  test("read through another directory (a party's), by the same identities", async () => {
    const hers = directory({ gift: 'id-agent', present: 'id-present' });
    expect(await given.given(send('gift'), hers)).toBe('"gift" (the agent itself)');
    expect(await given.given(send('present'), hers)).toBeUndefined();
  });

  test('a daemon that names none of them gives none of them away', async () => {
    const bare = makePowersGiven({
      powers: directory({ 'vault-code': 'id-vault' }),
      names: { agent: 'AGENT', mail: 'MAIL' },
    });
    expect(await bare.given(send('vault-code'))).toBeUndefined();
    expect(await bare.given(send('AGENT'))).toBeUndefined();
  });
});
