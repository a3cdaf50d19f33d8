/**
 * The agent on both daemon generations the mail host can play (issue 17):
 * f0a46042a (HOST, eval-proposals) and the newest (@host, locators, an
 * exo-stream mail reader, evaluate without approval). Under lockdown, through
 * make() and E(): ping, help() naming the generation, the special names, and
 * code that runs only after the host's yes on either daemon.
 */
import { describe, expect, test } from 'vitest';
import { E, Far } from '@endo/far';
import {
  DAEMON_PROFILES,
  makeMailHost,
  specialNamesOf,
  type DaemonProfile,
} from '../sim/mail-host/index.js';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { idFromLocator } from '../src/daemon/daemon-adapter.js';

const { start } = useAgents();

const turnsEnded = (run: AgentRun) => run.events.filter(event => event.kind === 'turn-end').length;

/** A probe the code can call: counts how often it ran. */
const makeProbe = () => {
  let calls = 0;
  const probe = Far('Probe', {
    bump: () => {
      calls += 1;
      return calls * 21;
    },
  });
  return { probe, calls: () => calls };
};

/** A mail host of this generation whose host holds the probe, to introduce to the agent. */
const hostWith = async (profile: DaemonProfile, probe: object) => {
  const host = makeMailHost({ profile });
  await E(host.host).storeValue(probe, 'probe');
  return host;
};

/** The host's side of the approval, as each generation shows it. */
const approval = (profile: DaemonProfile) =>
  profile === 'newest'
    ? {
        /** The request the agent put to @host about this code, which it sent just before. */
        asked: async (run: AgentRun, source: string) => {
          const code = await waitForMessage(
            run.host,
            message => message.type === 'package' && textOf(message).includes(source),
          );
          return waitForMessage(
            run.host,
            message => message.type === 'request' && message.number > code.number,
          );
        },
        yes: async (run: AgentRun, asked: Message) => {
          await E(run.host.host).storeValue('yes', 'approval');
          await E(run.host.host).resolve(asked.number, 'approval');
        },
        no: (run: AgentRun, asked: Message, reason: string) =>
          E(run.host.host).reject(asked.number, reason),
      }
    : {
        asked: (run: AgentRun, source: string) =>
          waitForMessage(
            run.host,
            message => message.type === 'eval-proposal-reviewer' && message.source === source,
          ),
        yes: async (run: AgentRun, asked: Message) => {
          await run.host.grant(asked.number);
        },
        no: (run: AgentRun, asked: Message, reason: string) =>
          run.host.rejectProposal(asked.number, reason),
      };

describe.each(DAEMON_PROFILES)('on the %s daemon', profile => {
  const special = specialNamesOf(profile);

  test('greets the host, answers ping in one model call, and leaves nothing undismissed', async () => {
    const run = await start({ profile, steps: [replyStep('pong')] });
    expect(run.greeting!.to).toBe(run.host.hostId);
    await run.send('ping');
    const pong = await run.reply('pong');
    expect(pong.replyTo).toBeDefined();
    expect(run.provider.requests).toHaveLength(1);
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toMatch(
      new RegExp(`Message #\\d+ from ${special.host}:\\s*ping`),
    );
    await expect
      .poll(async () => (await E(run.host.guest(run.name).powers).listMessages()).length)
      .toBe(0);
  });

  test('help() names the generation the agent found', async () => {
    const run = await start({ profile, steps: [] });
    const help = await run.help();
    expect(help).toMatch(new RegExp(`generation: ${profile}`));
    expect(help).toContain(`special names: ${special.host}, ${special.self}`);
  });

  test("the model is taught this daemon's special names and sends to the host by them", async () => {
    const run = await start({
      profile,
      steps: [callTool('send', { recipient: special.host, strings: ['hello host'] }), say('')],
    });
    await run.send('say hello to the host');
    await run.reply('hello host');
    const system = run.provider.requests[0]!.messages[0]!.content;
    expect(system).toContain(`${special.host} (your host`);
    const send = JSON.stringify(run.provider.requests[0]!.toolNames);
    expect(send).toContain('"send"');
    // messageHistory (an op of mail) is offered only where messages have revisions.
    const mail = run.provider.requests[0]!.tools.find(tool => tool.function.name === 'mail')!;
    expect((mail.function.parameters.properties?.op?.enum ?? []).includes('messageHistory')).toBe(
      profile === 'newest',
    );
  });

  test('evaluate says who approves the code and how to give it values and keep its result', async () => {
    const run = await start({ profile, steps: [say('ok')] });
    await run.send('ping');
    await run.reply('ok');
    const evaluate = run.provider.requests[0]!.tools.find(
      tool => tool.function.name === 'evaluate',
    )!;
    const description = evaluate.function.description ?? '';
    expect(description).toContain('petNamePaths as codeNames');
    expect(description).toContain('resultName');
    expect(description).toContain(
      profile === 'newest'
        ? `Propose JavaScript to ${special.host} (it runs only once ${special.host} agrees)`
        : 'Propose JavaScript to your host',
    );
  });

  test('its own messages never start a turn', async () => {
    const run = await start({ profile, steps: [] });
    await E(run.host.guest(run.name).powers).send(special.host, ['talking to myself'], [], []);
    await run.reply('talking to myself');
    await run.send('ping');
    run.provider.push(replyStep('pong'));
    await run.reply('pong');
    expect(run.provider.requests).toHaveLength(1);
  });

  /** An agent whose model proposes `source` (the probe endowed) for the message `text`; waits until its turn is over. */
  const proposeProbeCode = async (source: string, text: string) => {
    const { probe, calls } = makeProbe();
    let origin = -1;
    const run = await start({
      profile,
      host: await hostWith(profile, probe),
      introducedNames: { probe: 'probe' },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('evaluate', {
            source,
            codeNames: ['probe'],
            petNamePaths: [['probe']],
            resultName: 'answer',
          });
        },
        say(''),
      ],
    });
    await run.send(text);
    const side = approval(profile);
    const asked = await side.asked(run, source);
    await expect.poll(() => turnsEnded(run)).toBe(1);
    return { run, calls, side, asked, origin: () => origin };
  };

  test('code runs only after the host says yes, and its result reaches the model', async () => {
    const { run, calls, side, asked, origin } = await proposeProbeCode(
      'E(probe).bump()',
      'bump the probe',
    );
    // The turn is over and the host has not answered: the code has not run.
    expect(calls()).toBe(0);
    expect(JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content)).toMatchObject({
      status: 'pending',
    });
    if (profile === 'newest') {
      expect(String(asked.description)).toContain('probe <- probe');
    }
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^GRANTED/);
      expect(notice).toContain('21');
      return callTool('reply', { messageNumber: origin(), strings: ['bumped: 21'] });
    });
    await side.yes(run, asked);
    await run.reply('bumped: 21');
    expect(calls()).toBe(1);
    expect(await E(run.host.guest(run.name).powers).lookup('answer')).toBe(21);
  });

  test('code does not run after the host says no; the reason reaches the model', async () => {
    const { run, calls, side, asked, origin } = await proposeProbeCode(
      'E(probe).bump() + 1',
      'bump it',
    );
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^REJECTED/);
      expect(notice).toContain('not on a Sunday');
      return callTool('reply', {
        messageNumber: origin(),
        strings: ['The host said no: not on a Sunday'],
      });
    });
    await side.no(run, asked, 'not on a Sunday');
    const told = await run.reply(/The host said no/);
    expect(textOf(told)).toContain('not on a Sunday');
    expect(calls()).toBe(0);
    expect(await E(run.host.guest(run.name).powers).has('answer')).toBe(false);
  });
});

describe('the newest daemon only', () => {
  test('LAL_DIRECT_EVAL=1 runs code at once, as that daemon intends, and says so', async () => {
    let origin = -1;
    const run = await start({
      profile: 'newest',
      env: { LAL_DIRECT_EVAL: '1' },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('evaluate', {
            source: '6 * 7',
            codeNames: [],
            petNamePaths: [],
            resultName: 'answer',
          });
        },
      ],
    });
    // The outcome may come before the model's next call or start a turn of its own.
    const answerOnceGranted = (request: RecordedRequest) =>
      request.messages.some(
        message => message.role === 'user' && message.content.startsWith('GRANTED'),
      )
        ? callTool('reply', { messageNumber: origin, strings: ['42'] })
        : say('');
    run.provider.push(answerOnceGranted, answerOnceGranted, answerOnceGranted);
    expect(await run.help()).toMatch(/evaluate runs at once, without asking \(LAL_DIRECT_EVAL\)/);
    await run.send('compute');
    await run.reply('42');
    const granted = run.provider.requests
      .flatMap(request => request.messages)
      .find(message => message.content.startsWith('GRANTED'));
    expect(granted!.content).toMatch(/^GRANTED: the daemon ran/);
    const hostInbox = asMessages(await E(run.host.host).listMessages());
    expect(hostInbox.some(message => message.type === 'request')).toBe(false);
  });

  test('mail to HOST fails there: HOST is an ordinary, unbound name', async () => {
    const run = await start({
      profile: 'newest',
      steps: [
        callTool('send', { recipient: 'HOST', strings: ['hi'] }),
        request => say(request.messages.at(-1)!.content),
      ],
    });
    await run.send('write to HOST');
    const told = await run.reply(/Unknown recipient/);
    expect(textOf(told)).toContain('HOST');
  });
});

describe("the newest daemon's locators, read as the formula ids they name", () => {
  test('each spelling of a locator gives `<number>:<node>`; an id passes; anything else is no id', () => {
    const node = 'a1'.repeat(32);
    const number = 'b2'.repeat(32);
    const id = `${number}:${node}`;
    const read: [unknown, string | undefined][] = [
      [`endo://${node}/${number}?type=handle`, id],
      [`endo://${node}/${number}@127.0.0.1:8920?type=guest`, id],
      [`endo://${node}/${number}/`, id],
      // The older spelling, with the number as a parameter.
      [`endo://${node}/?type=handle&id=${number}`, id],
      [`endo://${node}/?type=handle`, undefined],
      ['endo://not-hex/0?type=handle', undefined],
      [id, id],
      ['HOST', undefined],
      ['', undefined],
      [42, undefined],
      [undefined, undefined],
    ];
    expect(read.map(([value]) => idFromLocator(value))).toEqual(read.map(([, want]) => want));
  });
});

describe('the newest daemon: messages still being written (done: false)', () => {
  /** The host's own copy of the latest package it sent to the agent: the number editMessage takes. */
  const sentByHost = async (host: AgentRun['host']) => {
    const own = (await E(host.host).listMessages()) as unknown as Message[];
    return own.filter(message => message.type === 'package').at(-1)!;
  };

  test('a message is not answered until done, then once with its final text', async () => {
    let draftNumber = 0n;
    const run = await start({
      profile: 'newest',
      prepare: async host => {
        await E(host.host).send('lal', ['draft: half a que'], [], []);
        draftNumber = (await sentByHost(host)).number;
        await E(host.host).editMessage(draftNumber, ['draft: half a question'], [], [], {
          done: false,
        });
        // A message after the draft: once it is answered, the agent has read past the draft.
        await E(host.host).send('lal', ['ping'], [], []);
      },
      steps: [replyStep('pong'), replyStep('answered'), replyStep('extra')],
    });
    await waitForMessage(run.host, message => textOf(message) === 'pong');
    await E(run.host.host).editMessage(draftNumber, ['final: what is 6 times 7?'], [], [], {
      done: true,
    });
    await waitForMessage(run.host, message => textOf(message) === 'answered');
    await run.send('last');
    await waitForMessage(run.host, message => textOf(message) === 'extra');
    const notices = run.provider.requests.map(request => JSON.stringify(request.messages.at(-1)));
    expect(notices).toHaveLength(3);
    expect(notices[0]).toContain('ping');
    expect(notices[1]).toContain('final: what is 6 times 7?');
    expect(notices[2]).toContain('last');
    expect(notices.join('\n')).not.toContain('draft:');
  });

  test('an edit of an answered message starts no turn; the next notice says it was amended', async () => {
    let first = 0n;
    const run = await start({
      profile: 'newest',
      steps: [
        // The sender edits while the answer is being written: the edit is seen after the message was answered.
        async request => {
          first = (await sentByHost(run.host)).number;
          await E(run.host.host).editMessage(first, ['hello, amended'], [], [], { done: true });
          return callTool('reply', {
            messageNumber: latestMessageNumber(request),
            strings: ['hi'],
          });
        },
        replyStep('pong'),
      ],
    });
    await run.send('hello');
    await waitForMessage(run.host, message => textOf(message) === 'hi');
    const agentNumber = latestMessageNumber(run.provider.requests[0]!);
    await run.send('ping');
    await waitForMessage(run.host, message => textOf(message) === 'pong');
    expect(run.provider.requests.length).toBe(2);
    const second = JSON.stringify(run.provider.requests[1]!.messages.at(-1));
    expect(second).toContain(`#${agentNumber} was amended`);
    expect(second).toContain('ping');
  });
});
