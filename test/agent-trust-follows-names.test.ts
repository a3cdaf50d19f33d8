/**
 * Trust follows the directory (src/mail/sender-names.ts): whom LAL_TRUSTED_SENDERS trusts is the
 * sender the agent's directory names so at the time of the message. Once the HOST removes or
 * re-points the name, the sender's next message is no longer trusted: a LAL_TOOLS_APPROVE call
 * is put to the HOST again.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  waitForMessage,
  type AgentRun,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { DAEMON_PROFILES, type DaemonProfile } from '../sim/mail-host/profile.js';

const { start } = useAgents();

/** Whether the party's turns made `name` among its own names (behaviour 9.6: agent-parties/<party>/). */
const partyHas = (run: AgentRun, party: string, name: string) =>
  E(run.host.guest(run.name).powers).has('agent-parties', party, name);
const requestsToHost = async (run: AgentRun) =>
  asMessages(await E(run.host.host).listMessages()).filter(message => message.type === 'request');

/** Lal, trusting alice with makeDirectory; alice a guest of the same host that Lal knows as "alice". */
const startTrusting = async (profile: DaemonProfile) => {
  const run = await start({
    profile,
    env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
    prepare: async (host, name) => {
      await E(host.host).provideGuest('alice', {
        agentName: 'profile-for-alice',
        introducedNames: { [name]: name },
      });
      await E(host.host).provideGuest('mallory', {
        agentName: 'profile-for-mallory',
        introducedNames: { [name]: name },
      });
      await E(host.host).copy(['alice'], [`profile-for-${name}`, 'alice']);
    },
  });
  const sendAs = (guest: string, text: string) =>
    E(run.host.guest(guest).powers).send(run.name, [text], [], []);
  /** alice's message makes the directory `box`, and the model ends the turn with a word. */
  const askForBox = async (guest: string, box: string) => {
    run.provider.push(request => {
      expect(latestMessageNumber(request)).toBeGreaterThan(0);
      return callTool('makeDirectory', { petNamePath: [box] });
    }, say(''));
    await sendAs(guest, `make ${box}`);
  };
  return { run, askForBox };
};

describe.each(DAEMON_PROFILES)('trust follows the directory (%s daemon)', profile => {
  test('a trusted sender whose name the HOST removed is asked about at its next message', async () => {
    const { run, askForBox } = await startTrusting(profile);
    await askForBox('alice', 'first');
    await expect.poll(() => partyHas(run, 'alice', 'first')).toBe(true);
    expect(await requestsToHost(run)).toEqual([]);

    await E(run.host.host).remove(`profile-for-${run.name}`, 'alice');
    await askForBox('alice', 'second');
    const asked = await waitForMessage(run.host, message => message.type === 'request');
    expect(asked.description).toMatch(/asks to call makeDirectory \{"petNamePath":\["second"\]\}/);
    expect(asked.description).not.toMatch(/from alice/);
    expect(await partyHas(run, 'alice', 'second')).toBe(false);
  });

  test('a name re-pointed at another sender moves the trust with it', async () => {
    const { run, askForBox } = await startTrusting(profile);
    await askForBox('alice', 'first');
    await expect.poll(() => partyHas(run, 'alice', 'first')).toBe(true);

    await E(run.host.host).remove(`profile-for-${run.name}`, 'alice');
    await E(run.host.host).copy(['mallory'], [`profile-for-${run.name}`, 'alice']);
    // mallory is alice now, by the HOST's name: alice's trust, and alice's names (behaviour 9.6).
    await askForBox('mallory', 'mallorys');
    await expect.poll(() => partyHas(run, 'alice', 'mallorys')).toBe(true);
    await askForBox('alice', 'second');
    const asked = await waitForMessage(run.host, message => message.type === 'request');
    expect(asked.description).toMatch(/asks to call makeDirectory \{"petNamePath":\["second"\]\}/);
    expect(await partyHas(run, 'alice', 'second')).toBe(false);
  });
});
