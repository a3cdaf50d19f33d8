/**
 * The inbox among others (docs/behaviour.md 9.1): in a turn serving a peer,
 * `mail listMessages` shows that peer's messages only, and to the ops on a
 * message number (messageHistory, dismiss, adopt, resolve, reject) a message
 * someone else sent is no message (the turn's facet holds the peer's
 * messages, behaviour 9.6) — so a peer cannot read the HOST's waiting
 * message through the inbox, nor dismiss it. The HOST's turns see and act
 * on every message.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
import { asMessages, textOf, waitForMessage } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { withoutIds } from './support/without-ids.js';

const { start } = useAgents();
const lastResult = (request: RecordedRequest) => request.messages.at(-1)!.content;

describe.each(DAEMON_PROFILES)('the inbox in a peer’s turn, on the %s daemon', profile => {
  test('shows and touches only that peer’s messages; the HOST’s waiting message is neither read nor dismissed', async () => {
    const run = await start({
      profile,
      prepare: async (host, name) => {
        await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
      },
    });
    const guest = run.host.guest(run.name).powers;
    let hostNumber = -1n;
    run.provider.push(
      async () => {
        // The HOST writes while bob's turn runs: its message waits in the inbox.
        await run.send('my vault code is 7788');
        const waiting = asMessages(await E(guest).listMessages()).find(
          message => textOf(message) === 'my vault code is 7788',
        )!;
        hostNumber = waiting.number;
        return callTool('mail', { op: 'listMessages' });
      },
      request => {
        expect(lastResult(request)).toContain('what is in your inbox?');
        expect(withoutIds(lastResult(request))).not.toContain('7788');
        return callTool('mail', { op: 'messageHistory', messageNumber: Number(hostNumber) });
      },
      request => {
        expect(withoutIds(lastResult(request))).not.toContain('7788');
        // In bob's turn the HOST's message is not there (behaviour 9.6); bob is shown by the name
        // the agent knows him by (here his short id: it never named him).
        expect(lastResult(request)).toMatch(/No such message #\d+ from .+/);
        return callTool('mail', { op: 'dismiss', messageNumber: Number(hostNumber) });
      },
      request => {
        expect(lastResult(request)).toMatch(/No such message #\d+ from /);
        return callTool('reply', { messageNumber: 1, strings: ['nothing for you'] });
      },
      // The HOST's message, served after: its turn lists everything.
      () => callTool('mail', { op: 'listMessages' }),
      request => {
        expect(lastResult(request)).toContain('7788');
        return say('noted');
      },
    );
    await E(run.host.guest('bob').powers).send('lal', ['what is in your inbox?'], [], []);
    await waitForMessage(run.host, message => textOf(message) === 'nothing for you', {
      who: 'bob',
    });
    await run.reply('noted');
  });
});
