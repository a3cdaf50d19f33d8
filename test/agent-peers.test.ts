/**
 * The agent among other agents (docs/behaviour.md, "Other agents"), through
 * make() in the daemon double: a second guest that answers every message
 * is answered at most LAL_MAX_PEER_EXCHANGES turns in a row, the HOST is
 * told once and lets it go on with any message, the hold outlives a
 * restart; the HOST's mail is served before a flood from another sender.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES, specialNamesOf } from '../sim/mail-host/index.js';
import { callTool, type Step } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
  type MailHost,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** A model that answers every message it is shown, numbering its answers. */
const answerEach = (count: number, text = 'Thanks! And you?'): Step[] =>
  Array.from(
    { length: count },
    (_, index): Step =>
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [`${text} (${index + 1})`],
        }),
  );

/** Makes the guest `bob`, who knows the agent as `lal`. */
const makeBob = async (host: MailHost, agentName: string) => {
  await E(host.host).provideGuest('bob', { introducedNames: { [agentName]: 'lal' } });
};

const bobSays = (run: AgentRun, text: string) =>
  E(run.host.guest('bob').powers).send('lal', [text], [], []);

/** Bob answers every message the agent sends him, until stopped (or, for an agent that never stops, 30 times). */
const bobAnswersEverything = (run: AgentRun) => {
  let stopped = false;
  const seen = new Set<bigint>();
  const loop = async () => {
    while (!stopped && seen.size < 30) {
      // Two agents answering each other run on promises alone: let timers (the test's own) run between answers.
      await new Promise(resolve => {
        setImmediate(resolve);
      });
      const message = await waitForMessage(
        run.host,
        each =>
          each.type === 'package' &&
          each.from === run.host.guest(run.name).id &&
          !seen.has(each.number),
        { who: 'bob', timeoutMs: 60_000 },
      ).catch(() => undefined);
      if (message === undefined || stopped) return;
      seen.add(message.number);
      await bobSays(run, `Thanks! And you? (to ${textOf(message)})`);
    }
  };
  void loop();
  return {
    answered: () => seen.size,
    stop() {
      stopped = true;
    },
  };
};

const fromAgentTo = async (run: AgentRun, who: string) =>
  asMessages(await E(run.host.guest(who).powers).listMessages()).filter(
    message => message.from === run.host.guest(run.name).id,
  );

const hostInbox = async (run: AgentRun) =>
  (await E(run.host.host).listMessages()).map(message => textOf(message as never));

describe('conversations between agents end', () => {
  test('a guest that answers every message is answered 10 times in a row, the HOST told once; a HOST message lets it go on', async () => {
    const run = await start({ steps: answerEach(40), prepare: makeBob });
    const bob = bobAnswersEverything(run);
    try {
      await bobSays(run, 'Hello lal! How are you?');
      const told = await run.reply(/^I stopped answering /);
      expect(textOf(told)).toMatch(
        /^I stopped answering .+ after 10 turns in a row without a word from you \(LAL_MAX_PEER_EXCHANGES\); its messages wait in my inbox\. Send me any message to let me go on\.$/,
      );
      expect(textOf(told)).not.toMatch(/\n/);
      expect(await fromAgentTo(run, 'bob')).toHaveLength(10);
      expect(run.provider.requests).toHaveLength(10);
      // Bob goes on writing: his messages wait, and the HOST is not told again.
      await bobSays(run, 'Are you still there?');
      await bobSays(run, 'Hello?');
      await expect.poll(() => run.help()).toMatch(/HELD .*\(3 messages wait/);
      expect(await fromAgentTo(run, 'bob')).toHaveLength(10);
      expect((await hostInbox(run)).filter(text => text.startsWith('I stopped'))).toHaveLength(1);
      // Bob's waiting messages are still in the inbox (dismissed only when served).
      const inbox = await E(run.host.guest(run.name).powers).listMessages();
      expect(inbox.filter(message => message.from === run.host.guest('bob').id)).toHaveLength(3);

      // The HOST says anything: the count starts again and bob's messages are answered.
      await run.send('fine, go on');
      await run.reply(/^Thanks! And you\? \(11\)$/);
      await expect.poll(async () => (await fromAgentTo(run, 'bob')).length).toBeGreaterThan(10);
    } finally {
      bob.stop();
    }
  });

  test('the bound is LAL_MAX_PEER_EXCHANGES, and a hold outlives a restart without telling the HOST again', async () => {
    const run = await start({
      env: { LAL_MAX_PEER_EXCHANGES: '2' },
      steps: answerEach(2),
      prepare: makeBob,
    });
    for (const text of ['one', 'two', 'three']) await bobSays(run, text);
    await run.reply(/^I stopped answering .+ after 2 turns in a row/);
    expect(await fromAgentTo(run, 'bob')).toHaveLength(2);
    expect(await run.help()).toMatch(/HELD after 2 turns in a row \(1 message wait/);

    await run.restart(answerEach(3));
    await expect.poll(() => run.help()).toMatch(/HELD .*\(1 message wait/);
    expect((await hostInbox(run)).filter(text => text.startsWith('I stopped'))).toHaveLength(1);
    expect(run.provider.requests).toHaveLength(0);

    await run.send('go on');
    await run.reply(/^Thanks! And you\? \(1\)$/);
    await expect
      .poll(async () => (await fromAgentTo(run, 'bob')).map(textOf))
      .toContain('Thanks! And you? (2)');
  });

  test('LAL_MAX_TURNS_PER_SENDER_PER_HOUR holds a sender past its hourly turns, the HOST is told until when', async () => {
    const run = await start({
      env: { LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '2' },
      steps: answerEach(3),
      prepare: makeBob,
    });
    await bobSays(run, 'one');
    await run.send('hello from HOST');
    await bobSays(run, 'two');
    await bobSays(run, 'three');
    const told = await run.reply(/^I have answered /);
    expect(textOf(told)).toMatch(
      /^I have answered .+ 2 times in the last hour \(LAL_MAX_TURNS_PER_SENDER_PER_HOUR\); its messages wait in my inbox until \d{4}-\d\d-\d\dT/,
    );
    expect(await fromAgentTo(run, 'bob')).toHaveLength(2);
    expect(await run.help()).toMatch(/HELD by the hourly bound \(1 message wait/);
  });
});

describe('the HOST first', () => {
  test('a HOST message queued behind 50 messages from another guest is answered next', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>(resolve => {
      open = resolve;
    });
    const held: Step = async request => {
      await gate;
      return callTool('reply', {
        messageNumber: latestMessageNumber(request),
        strings: ['Noted (1)'],
      });
    };
    const run = await start({
      env: { LAL_MAX_PEER_EXCHANGES: '100', LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '100' },
      steps: [held, ...answerEach(60, 'Noted').slice(1)],
      prepare: makeBob,
    });
    for (let index = 1; index <= 50; index += 1) await bobSays(run, `flood ${index}`);
    await run.send('a question from HOST');
    // The first of bob's messages is being served; 49 of his and the HOST's wait.
    await expect.poll(() => run.help()).toMatch(/HOST: 1\n/);
    await expect.poll(() => run.help()).toMatch(/: 49(\n|$)/);
    open();
    const answer = await run.reply(/^Noted \(2\)$/);
    expect(answer).toBeDefined();
    expect(run.provider.requests[1]!.messages.at(-1)!.content).toMatch(
      /from HOST: a question from HOST/,
    );
  });
});

describe.each(DAEMON_PROFILES)('senders from other daemons, on the %s daemon', profile => {
  const special = specialNamesOf(profile);
  test('an unnamed sender is shown by the same short id every time, and one of a peer daemon as such; help() lists them', async () => {
    const run = await start({
      profile,
      steps: answerEach(4),
      prepare: async (host, name) => {
        await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
        await host.providePeerGuest('carol', { introducedNames: { [name]: 'lal' } });
      },
    });
    const carolSays = (text: string) =>
      E(run.host.guest('carol').powers).send('lal', [text], [], []);
    await bobSays(run, 'hi from bob');
    await expect.poll(() => run.provider.requests.length).toBe(1);
    await carolSays('hi from carol');
    await expect.poll(() => run.provider.requests.length).toBe(2);
    await carolSays('carol again');
    await expect.poll(() => run.provider.requests.length).toBe(3);
    const notices = run.provider.requests.map(request => request.messages.at(-1)!.content);
    const [bobId, carolId] = [run.host.guest('bob').id, run.host.guest('carol').id];
    const short = (id: string) => id.slice(0, 8);
    const node = (id: string) => id.split(':')[1]!.slice(0, 8);
    expect(notices[0]).toMatch(new RegExp(`from unnamed ${short(bobId)}: hi from bob`));
    expect(notices[0]).not.toMatch(/another daemon/);
    const carol = `unnamed ${short(carolId)} on another daemon (node ${node(carolId)})`;
    expect(node(carolId)).not.toBe(node(bobId));
    expect(notices[1]).toContain(`from ${carol}: hi from carol`);
    expect(notices[2]).toContain(`from ${carol}: carol again`);
    // The HOST sees them the same way in help(), with the HOST itself once it has spoken.
    await run.send('and me');
    await run.reply(/^Thanks! And you\? \(4\)$/);
    const help = await run.help();
    expect(help).toMatch(/Senders served:/);
    expect(help).toContain(`- ${special.host}: 1 turn`);
    expect(help).toContain(`- ${carol}: 2 turns`);
    expect(help).toContain(`- unnamed ${short(bobId)}: 1 turn`);
  });
});
