/**
 * The tool policy piece by piece (src/policy/): how LAL_TOOLS_ALLOW / _DENY / _APPROVE and
 * LAL_TRUSTED_SENDERS are read, what help() says of them, which calls the guard runs, refuses or
 * puts to the HOST (a call that cannot be decoded is never put to the HOST), and which stored
 * approval leaves an allowance. The agent-level proof is agent-tool-policy.test.ts and
 * agent-call-decision.test.ts; `npm run mutation -- policy` judges these.
 */
import { describe, expect, test } from 'vitest';
import { decodeCall, type CallDecoding, type DecodedCall } from '../src/agent-tools/decode-call.js';
import type { ApprovalGate } from '../src/asks/approval-gate.js';
import type { ApprovalAsk } from '../src/policy/guard-tool-call.js';
import { describeCall, digestOfCall, digestOfStored } from '../src/policy/describe-call.js';
import { guardToolCall } from '../src/policy/guard-tool-call.js';
import { throughHooks } from '../src/loop/tool-call-hooks.js';
import { readToolPolicy, type HostConfirm } from '../src/policy/tool-policy.js';
import { toolPolicyProblems } from '../src/settings/tool-policy-settings.js';
import { pickEnv } from '../setup/passed-env.js';

const decode = (name: string, args: string) =>
  decodeCall({ id: 'c1', name, arguments: args }, text => text);

describe('readToolPolicy', () => {
  test('lists are comma-separated names, spaces and empty entries ignored', () => {
    const policy = readToolPolicy({
      LAL_TOOLS_DENY: ' remove ,, makeDirectory ,',
      LAL_TOOLS_APPROVE: 'send,  runCommand',
    });
    expect(policy.allows(['remove', 'names'])).toBe(false);
    expect(policy.allows(['makeDirectory', 'names'])).toBe(false);
    expect(policy.allows(['list', 'names'])).toBe(true);
    expect(policy.allows([''])).toBe(true);
    expect(policy.needsApproval(['runCommand'], 'alice')).toBe(true);
    expect(policy.needsApproval(['send'], 'alice')).toBe(true);
    expect(policy.describe()).toEqual([
      'never these tools: remove, makeDirectory',
      'HOST approves each call of: send, runCommand (not asked while serving HOST, @host)',
    ]);
  });

  test("LAL_TOOLS_CONFIRM asks the HOST first whoever is served, the HOST's own turns too", () => {
    const policy = readToolPolicy({
      LAL_TOOLS_CONFIRM: 'runCommand, writeFile',
      LAL_TOOLS_APPROVE: 'send',
    });
    expect(policy.needsApproval(['runCommand'], 'HOST')).toBe(true);
    expect(policy.needsApproval(['writeFile'], 'alice')).toBe(true);
    expect(policy.needsApproval(['runCommand'], undefined)).toBe(true);
    // The HOST stays trusted for the rest: LAL_TOOLS_APPROVE still spares it, and its mail is served first.
    expect(policy.needsApproval(['send'], 'HOST')).toBe(false);
    expect(policy.needsApproval(['readFile'], 'HOST')).toBe(false);
    expect(policy.trusts('HOST')).toBe(true);
    expect(policy.describe('@host')).toEqual([
      '@host approves each call of: send (not asked while serving HOST, @host)',
      '@host confirms each call of: runCommand, writeFile (asked whoever is served, @host too: LAL_TOOLS_CONFIRM)',
    ]);
    expect(toolPolicyProblems({ LAL_TOOLS_CONFIRM: ',' })).toEqual([
      'LAL_TOOLS_CONFIRM is ",": it names no tool, so no call asks the HOST first on the HOST\'s own turns.',
    ]);
  });

  test('a list that is only spaces is no list: LAL_TOOLS_ALLOW of spaces allows everything', () => {
    const policy = readToolPolicy({ LAL_TOOLS_ALLOW: '   ', LAL_TOOLS_DENY: ' ' });
    expect(policy.allows(['reply'])).toBe(true);
    expect(policy.describe()).toEqual([]);
  });

  test('LAL_TOOLS_ALLOW offers only what it names; a refusal says which list refused', () => {
    const policy = readToolPolicy({ LAL_TOOLS_ALLOW: 'reply, names', LAL_TOOLS_DENY: 'remove' });
    expect(policy.allows(['reply'])).toBe(true);
    expect(policy.allows(['list', 'names'])).toBe(true);
    expect(policy.allows(['send'])).toBe(false);
    expect(policy.refusal(['send'])).toBe(
      'The tool "send" is not allowed here (it is not in LAL_TOOLS_ALLOW). Do without it, or tell the sender you cannot.',
    );
    expect(policy.refusal(['remove', 'names'])).toBe(
      'The tool "remove" is not allowed here (LAL_TOOLS_DENY). Do without it, or tell the sender you cannot.',
    );
    expect(policy.refusal([])).toBe(
      'The tool "" is not allowed here (it is not in LAL_TOOLS_ALLOW). Do without it, or tell the sender you cannot.',
    );
    expect(policy.describe()).toEqual([
      'only these tools: reply, names',
      'never these tools: remove',
    ]);
  });

  test('trusted senders: HOST by default, else exactly those named; no sender (a wake-up) is never trusted', () => {
    const byDefault = readToolPolicy({ LAL_TOOLS_APPROVE: 'send' });
    expect(byDefault.needsApproval(['send'], 'HOST')).toBe(false);
    expect(byDefault.needsApproval(['send'], '@host')).toBe(false);
    expect(byDefault.needsApproval(['send'], 'alice')).toBe(true);
    expect(byDefault.needsApproval(['send'], undefined)).toBe(true);
    expect(byDefault.needsApproval(['reply'], 'alice')).toBe(false);
    // Why it asks: the setting, and the sender it names when there is one.
    expect(byDefault.whyAsked(['send'], undefined)).toBe('LAL_TOOLS_APPROVE gates this tool');
    expect(byDefault.trustedNames()).toEqual(['HOST', '@host']);
    const named = readToolPolicy({ LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: 'alice, bob' });
    expect(named.trustedNames()).toEqual(['alice', 'bob']);
    expect(named.needsApproval(['send'], 'alice')).toBe(false);
    expect(named.needsApproval(['send'], 'HOST')).toBe(true);
    expect(named.describe()).toEqual([
      'HOST approves each call of: send (not asked while serving alice, bob)',
    ]);
    // A list of no sender trusts no one: even the HOST's own calls ask (and the HOST is told at start).
    const nobody = readToolPolicy({ LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: ' , ' });
    expect(nobody.needsApproval(['send'], 'HOST')).toBe(true);
    expect(nobody.needsApproval(['send'], '@host')).toBe(true);
    expect(nobody.trusts('HOST')).toBe(false);
    expect(nobody.describe()).toEqual([
      'HOST approves each call of: send (asked whoever is served)',
    ]);
  });

  test('a blank list is unset, as every other blank variable', () => {
    for (const blank of [' ', '']) {
      const policy = readToolPolicy({
        LAL_TOOLS_ALLOW: blank,
        LAL_TOOLS_DENY: blank,
        LAL_TOOLS_APPROVE: blank,
        LAL_TRUSTED_SENDERS: blank,
      });
      expect(policy.allows(['runCommand'])).toBe(true);
      expect(policy.allows(['remove', 'names'])).toBe(true);
      expect(policy.needsApproval(['runCommand'], 'alice')).toBe(false);
      expect(policy.trusts('HOST')).toBe(true);
      expect(policy.trusts('alice')).toBe(false);
      expect(policy.describe()).toEqual([]);
    }
  });

  test('a list of only commas is an empty list: the lists that grant grant nothing', () => {
    for (const nothing of [',', ' , ,']) {
      const policy = readToolPolicy({
        LAL_TOOLS_ALLOW: nothing,
        LAL_TOOLS_DENY: nothing,
        LAL_TOOLS_APPROVE: nothing,
        LAL_TRUSTED_SENDERS: nothing,
      });
      expect(policy.allows(['runCommand'])).toBe(false);
      expect(policy.allows(['remove', 'names'])).toBe(false);
      expect(policy.offered([])).toEqual([]);
      expect(policy.needsApproval(['runCommand'], 'alice')).toBe(false);
      expect(policy.trusts('HOST')).toBe(false);
      expect(policy.describe()).toEqual(['only these tools: none']);
    }
    const denyNothing = readToolPolicy({ LAL_TOOLS_DENY: ',', LAL_TOOLS_APPROVE: ',' });
    expect(denyNothing.allows(['runCommand'])).toBe(true);
    expect(denyNothing.needsApproval(['runCommand'], 'alice')).toBe(false);
  });

  test('a list set to only commas is told to the HOST with what it means; a blank one or one with names is not', () => {
    expect(
      toolPolicyProblems({
        LAL_TOOLS_ALLOW: ',',
        LAL_TOOLS_DENY: ' , ',
        LAL_TOOLS_APPROVE: ',,',
        LAL_TRUSTED_SENDERS: ',',
      }),
    ).toEqual([
      'LAL_TOOLS_ALLOW is ",": it names no tool, so no tool is offered (unset, every tool is).',
      'LAL_TOOLS_DENY is " , ": it names no tool, so no tool is denied.',
      'LAL_TOOLS_APPROVE is ",,": it names no tool, so no call asks the HOST first.',
      'LAL_TRUSTED_SENDERS is ",": it names no sender, so no sender is trusted: every gated call asks the HOST, even the HOST\'s own.',
    ]);
    expect(
      toolPolicyProblems({
        LAL_TOOLS_ALLOW: ' ',
        LAL_TOOLS_DENY: 'remove,',
        LAL_TOOLS_APPROVE: '',
      }),
    ).toEqual([]);
    expect(toolPolicyProblems({})).toEqual([]);
  });

  test('setup passes every policy variable on to the agent', () => {
    const policyEnv = {
      LAL_TOOLS_ALLOW: 'a',
      LAL_TOOLS_DENY: 'b',
      LAL_TOOLS_APPROVE: 'c',
      LAL_TRUSTED_SENDERS: 'd',
    };
    expect(pickEnv(policyEnv)).toEqual(policyEnv);
  });
});

describe('guardToolCall', () => {
  const makeGate = (allowed: string[] = []) => {
    const asked: ApprovalAsk[] = [];
    const gate: ApprovalGate = {
      ask: request => {
        asked.push(request);
        return { status: 'pending', approvalId: 'a1' };
      },
      pending: () => [],
      describe: () => [],
      takeAllowance: digest => {
        const at = allowed.indexOf(digest);
        if (at === -1) return false;
        allowed.splice(at, 1);
        return true;
      },
      resume: async () => {},
      stopRunning: () => {},
    };
    return { gate, asked };
  };
  const guard = (
    env: Record<string, string>,
    gate: ApprovalGate,
    origin: { number: bigint; sender: string } | undefined,
  ) => {
    const ran: CallDecoding[] = [];
    const hooks = guardToolCall({ policy: readToolPolicy(env), gate, origin });
    // Through the loop's own step (src/loop/tool-call-hooks.ts), as a turn runs it.
    const run = (call: CallDecoding, offered: readonly string[]) =>
      throughHooks(call, offered, hooks, async each => {
        ran.push(each);
        return each.ok ? 'ran' : each.error;
      });
    return { run, ran };
  };

  test('the reason a call asks names what made it ask: the setting set, the host own list, or the taint and what was read', async () => {
    // A turn that has read a tool's result (an earlier turn's, as its request shows).
    const taint = {
      turn: { peerTurn: false, read: () => 'the result of the tool runCommand', note: () => {} },
      parties: { partyOf: async () => 'host' as const },
    };
    const ask = async (env: Record<string, string>, sender: string, hostConfirm?: HostConfirm) => {
      const { gate, asked } = makeGate();
      const hooks = guardToolCall({
        policy: readToolPolicy(env, hostConfirm),
        gate,
        origin: { number: 3n, sender },
        taint,
      });
      await throughHooks(
        decode('runCommand', '{"command":"touch b.txt"}'),
        ['runCommand'],
        hooks,
        async () => 'ran',
      );
      expect(asked).toHaveLength(1);
      return asked[0]!.why;
    };
    // LAL_TOOLS_CONFIRM asks the HOST whatever the turn read: it is named, LAL_TOOLS_APPROVE (unset) is not.
    expect(await ask({ LAL_TOOLS_CONFIRM: 'runCommand' }, 'HOST')).toBe(
      'LAL_TOOLS_CONFIRM names this tool',
    );
    // An in-process host's own list (npm start's) says its own reason, whatever env holds.
    const hostConfirm: HostConfirm = {
      why: names => (names.includes('runCommand') ? 'npm start asks (its default)' : undefined),
      tools: () => ['runCommand'],
      source: "npm start's list",
    };
    expect(await ask({ LAL_TOOLS_CONFIRM: 'math' }, 'HOST', hostConfirm)).toBe(
      'npm start asks (its default)',
    );
    // LAL_TOOLS_APPROVE asks about an untrusted sender's call whatever the turn read.
    expect(await ask({ LAL_TOOLS_APPROVE: 'runCommand' }, 'alice')).toBe(
      'LAL_TOOLS_APPROVE gates this tool for alice, whom LAL_TRUSTED_SENDERS does not name',
    );
    // Only the taint makes a trusted sender's gated call wait: then the taint and what was read are said.
    expect(await ask({ LAL_TOOLS_APPROVE: 'runCommand' }, 'HOST')).toBe(
      'this turn has read the result of the tool runCommand, which did not come from the HOST, and LAL_TOOLS_APPROVE gates this tool',
    );
  });

  test('a call that cannot be decoded is answered with its error, never put to the HOST', async () => {
    const { gate, asked } = makeGate();
    const { run, ran } = guard({ LAL_TOOLS_APPROVE: 'deploy' }, gate, {
      number: 1n,
      sender: 'alice',
    });
    const answer = await run(decode('deploy', '{"to": '), ['deploy']);
    expect(answer).toMatch(/^The arguments are not valid JSON/);
    expect(asked).toEqual([]);
    expect(ran).toHaveLength(1);
  });

  test('a gated call while serving no one (a wake-up) is put to the HOST, whole', async () => {
    const { gate, asked } = makeGate();
    const { run, ran } = guard({ LAL_TOOLS_APPROVE: 'deploy' }, gate, undefined);
    const answer = await run(decode('deploy', '{"to":"bob","strings":["hi"]}'), ['deploy']);
    expect(JSON.parse(answer)).toEqual({ status: 'pending', approvalId: 'a1' });
    expect(ran).toEqual([]);
    expect(asked.map(({ action, origin, why }) => ({ action, origin, why }))).toEqual([
      {
        action: 'deploy {"to":"bob","strings":["hi"]}',
        origin: undefined,
        why: 'LAL_TOOLS_APPROVE gates this tool',
      },
    ]);
    expect(asked[0]!.digest).toBe(digestOfCall(asked[0]!.action));
  });

  test('an allowance left by an approval runs that call once without asking', async () => {
    const call = decode('deploy', '{"to":"bob"}');
    const { gate, asked } = makeGate([digestOfCall(describeCall(call as never))]);
    const { run, ran } = guard({ LAL_TOOLS_APPROVE: 'deploy' }, gate, { number: 2n, sender: 'x' });
    expect(await run(call, ['deploy'])).toBe('ran');
    expect(ran).toHaveLength(1);
    await run(call, ['deploy']);
    expect(asked).toHaveLength(1);
  });
});

describe("guardToolCall's seams: the facet, the store boundary, the powers given, the taint", () => {
  const noAsk = (): ApprovalGate & { asked: ApprovalAsk[] } => {
    const asked: ApprovalAsk[] = [];
    return {
      asked,
      ask: request => {
        asked.push(request);
        return { status: 'pending', approvalId: 'a9' };
      },
      pending: () => [],
      describe: () => [],
      takeAllowance: () => false,
      resume: async () => {},
      stopRunning: () => {},
    };
  };
  const taintOf = (read: string | undefined, party: 'host' | 'sender' | 'other' = 'other') => {
    const noted: string[] = [];
    const asks: unknown[] = [];
    return {
      noted,
      asks,
      taint: {
        turn: { peerTurn: false, read: () => read, note: (what: string) => noted.push(what) },
        parties: {
          partyOf: async (effect: unknown, origin: unknown) => {
            asks.push({ effect, origin });
            return party;
          },
        },
      },
    };
  };
  const runThrough = async (
    hooks: ReturnType<typeof guardToolCall>,
    call: CallDecoding,
    offered: readonly string[] = ['send', 'names'],
  ) => {
    let ran = 0;
    const answer = await throughHooks(call, offered, hooks, async () => {
      ran += 1;
      return 'ran';
    });
    return { answer, ran };
  };
  const origin = { number: 4n, sender: 'HOST' };
  /** The guard of a HOST's turn with no setting, judging by this taint. */
  const guardWith = (taint: ReturnType<typeof taintOf>['taint']) =>
    guardToolCall({ policy: readToolPolicy({}), gate: noAsk(), origin, taint });

  test('a tool the facet does not hold is no tool: told as unknown, with the tools offered, whatever else', async () => {
    const seen: (readonly string[])[] = [];
    const gate = noAsk();
    const hooks = guardToolCall({
      policy: readToolPolicy({ LAL_TOOLS_CONFIRM: 'mail' }),
      gate,
      origin,
      holds: names => {
        seen.push(names);
        return false;
      },
      boundary: { refusal: async () => 'never asked' },
    });
    const { answer, ran } = await runThrough(
      hooks,
      decode('adoptTool', '{"messageNumber":"1","toolName":"x","edgeName":"y"}'),
      ['send', 'names'],
    );
    expect(JSON.parse(answer)).toEqual({
      error: 'Unknown tool "adoptTool". The tools you have are: send, names',
    });
    expect(ran).toBe(0);
    expect(gate.asked).toEqual([]);
    expect(seen).toEqual([['adoptTool', 'mail']]);
    // A call with no names (none decoded) is told by the name it was called by.
    const nameless = { ...decode('ghost', '{}'), names: [] } as CallDecoding;
    const told = await runThrough(hooks, nameless, ['send']);
    expect(JSON.parse(told.answer)).toEqual({
      error: 'Unknown tool "ghost". The tools you have are: send',
    });
  });

  test('a tool the facet holds goes on to the policy, and runs when nothing else stands in the way', async () => {
    const hooks = guardToolCall({
      policy: readToolPolicy({}),
      gate: noAsk(),
      origin,
      holds: names => names.includes('send'),
    });
    expect(await runThrough(hooks, decode('send', '{"recipient":"bob","strings":["hi"]}'))).toEqual(
      { answer: 'ran', ran: 1 },
    );
    const denied = guardToolCall({
      policy: readToolPolicy({ LAL_TOOLS_DENY: 'send' }),
      gate: noAsk(),
      origin,
      holds: () => true,
    });
    const { answer, ran } = await runThrough(
      denied,
      decode('send', '{"recipient":"bob","strings":["hi"]}'),
    );
    expect(JSON.parse(answer).error).toMatch(/LAL_TOOLS_DENY/);
    expect(ran).toBe(0);
  });

  test("the store boundary's refusal is the answer and nothing runs; a call it lets by runs; an undecodable call never reaches it", async () => {
    const judged: string[] = [];
    const hooks = guardToolCall({
      policy: readToolPolicy({}),
      gate: noAsk(),
      origin,
      boundary: {
        refusal: async call => {
          judged.push(call.call.name);
          return call.call.name === 'lookup'
            ? '"agent-memory" is the agent\'s own store'
            : undefined;
        },
      },
    });
    const refused = await runThrough(hooks, decode('lookup', '{"path":["agent-memory"]}'));
    expect(JSON.parse(refused.answer)).toEqual({
      error: '"agent-memory" is the agent\'s own store',
    });
    expect(refused.ran).toBe(0);
    expect(await runThrough(hooks, decode('has', '{"path":["box"]}'))).toEqual({
      answer: 'ran',
      ran: 1,
    });
    await runThrough(hooks, decode('lookup', '{"path": ['));
    expect(judged).toEqual(['lookup', 'has']);
  });

  test("what a call gives of the agent's own is refused to a turn not the HOST's, and put to the HOST, whole, in the HOST's", async () => {
    const given = async (call: DecodedCall) =>
      call.call.name === 'send' ? 'the value at "secret"' : undefined;
    const send = decode('send', '{"recipient":"bob","strings":["hi"],"petNames":["secret"]}');
    const peer = guardToolCall({
      policy: readToolPolicy({}),
      gate: noAsk(),
      origin: { number: 5n, sender: 'alice' },
      gives: { given, hostTurn: false },
    });
    const refused = await runThrough(peer, send);
    expect(JSON.parse(refused.answer)).toEqual({
      error:
        'the value at "secret" is not this turn\'s to give: only a turn of the HOST\'s may, with its approval',
    });
    expect(refused.ran).toBe(0);
    // What gives nothing runs in a peer's turn as in any other.
    expect(await runThrough(peer, decode('has', '{"path":["box"]}'))).toEqual({
      answer: 'ran',
      ran: 1,
    });
    const gate = noAsk();
    const host = guardToolCall({
      policy: readToolPolicy({}),
      gate,
      origin,
      gives: { given, hostTurn: true },
      // The taint would ask for another reason: the gift is the one named.
      taint: taintOf('a peer message').taint,
    });
    const asked = await runThrough(host, send);
    expect(JSON.parse(asked.answer)).toEqual({ status: 'pending', approvalId: 'a9' });
    expect(asked.ran).toBe(0);
    expect(gate.asked.map(({ action, why, origin: from }) => ({ action, why, from }))).toEqual([
      {
        action: describeCall(send as DecodedCall),
        why: 'it gives the value at "secret", which only the HOST\'s approval of this very call allows',
        from: origin,
      },
    ]);
    expect(await runThrough(host, decode('has', '{"path":["box"]}'))).toEqual({
      answer: 'ran',
      ran: 1,
    });
  });

  test('a tainted turn asks the HOST about a call toward someone else, by whom its effect reaches; an untainted one does not', async () => {
    const send = decode('send', '{"recipient":"bob","strings":["hi"]}');
    const tainted = taintOf('a value from the directory', 'other');
    const gate = noAsk();
    const hooks = guardToolCall({
      policy: readToolPolicy({}),
      gate,
      origin,
      taint: tainted.taint,
    });
    const asked = await runThrough(hooks, send);
    expect(asked.ran).toBe(0);
    expect(gate.asked).toHaveLength(1);
    expect(gate.asked[0]!.why).toMatch(
      /^this turn has read a value from the directory, which did not come from the HOST/,
    );
    expect(tainted.asks).toEqual([
      { effect: { kind: 'to', name: 'bob', what: 'sends a message' }, origin },
    ]);
    // The same call toward the turn's own sender goes ahead.
    const toSender = taintOf('a value from the directory', 'sender');
    const free = guardWith(toSender.taint);
    expect(await runThrough(free, send)).toEqual({ answer: 'ran', ran: 1 });
    // A call with no effect toward anyone is not asked about whom it reaches.
    const none = taintOf('a value from the directory');
    const quiet = guardWith(none.taint);
    expect(await runThrough(quiet, decode('has', '{"path":["box"]}'))).toEqual({
      answer: 'ran',
      ran: 1,
    });
    expect(none.asks).toEqual([]);
    // A turn that read nothing untrusted is never slowed, and not asked whom it reaches.
    const clean = taintOf(undefined);
    const plain = guardWith(clean.taint);
    expect(await runThrough(plain, send)).toEqual({ answer: 'ran', ran: 1 });
    expect(clean.asks).toEqual([]);
  });

  test('after a call ran, what its result brought in is noted in the turn; a result that brings nothing is not', async () => {
    const { noted, taint } = taintOf(undefined);
    const hooks = guardWith(taint);
    await runThrough(hooks, decode('lookup', '{"path":["box"]}'));
    await runThrough(hooks, decode('has', '{"path":["box"]}'));
    await runThrough(hooks, decode('runCommand', '{"command":"ls"}'), ['runCommand']);
    expect(noted).toEqual(['a value from the directory', 'the result of the tool runCommand']);
    // With no taint to note in, a call still runs.
    const bare = guardToolCall({ policy: readToolPolicy({}), gate: noAsk(), origin });
    expect(await runThrough(bare, decode('lookup', '{"path":["box"]}'))).toEqual({
      answer: 'ran',
      ran: 1,
    });
  });
});

describe('digestOfStored', () => {
  test('a stored digest is the allowance key as it is', () => {
    expect(digestOfStored({ digest: 'abc' }, 'send {"to":"bob"}')).toBe('abc');
  });

  test('an approval stored before digests: the digest of the whole call its text reads as, or none', () => {
    const call = decode('makeDirectory', '{"petNamePath":["box"]}');
    expect(digestOfStored({}, 'makeDirectory {"petNamePath":["box"]}')).toBe(
      digestOfCall(describeCall(call as never)),
    );
    expect(digestOfStored({}, ' {"petNamePath":["box"]}')).toBeUndefined();
    expect(digestOfStored({}, 'makeDirectory')).toBeUndefined();
    expect(digestOfStored({}, 'makeDirectory {"petNamePath": ["bo')).toBeUndefined();
  });
});
