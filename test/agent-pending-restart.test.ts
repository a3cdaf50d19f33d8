/**
 * Nothing the agent waits for is lost over a restart: a request, an
 * approval, a host-approved evaluation (newest daemon) or an eval-proposal
 * (f0a46042a) answered while the agent was down or after it came back
 * still reaches the conversation it belongs to, as a notice, and the
 * sender of that message hears the outcome. Also: a sender told to wait
 * by the quota is not told again after a restart. Under lockdown, through
 * make() and E(), with the daemon double's restart (behaviour 3.10).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  waitForMessage,
  type AgentRun,
  type Message,
  type StartOptions,
} from './support/agent-harness.js';
import { turnEnds, guest, hostRequests } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeManualClock } from './support/manual-clock.js';
import { recordRefusals } from './support/refused-calls.js';

const { start } = useAgents();

const stored = async (
  run: AgentRun,
): Promise<{ version: number; asks?: { pending: { id: string }[] }; holds?: { key: string }[] }> =>
  JSON.parse((await guest(run).lookup(['agent-state', 'memory'])) as string);
const pendingIds = async (run: AgentRun) =>
  ((await stored(run)).asks?.pending ?? []).map(ask => ask.id);
const ownRequestCopies = async (run: AgentRun) =>
  asMessages(await guest(run).listMessages()).filter(
    message => message.type === 'request' && message.from !== run.host.hostId,
  );

/** Starts an agent whose first turn makes one ask (the step given) for the message "go". */
const startAsking = async (ask: () => ReturnType<typeof callTool>, options: StartOptions = {}) => {
  let origin = -1;
  const run = await start({
    ...options,
    steps: [
      request => {
        origin = latestMessageNumber(request);
        return ask();
      },
      say(''),
    ],
  });
  await run.send('go');
  await expect.poll(() => turnEnds(run)).toBe(1);
  // The ask is in the store before the agent goes down.
  await expect.poll(() => pendingIds(run)).toHaveLength(1);
  return { run, origin: () => origin };
};

/** Lal's eval-proposal on f0a46042a: 6 * 7, its result kept as "answer". */
const proposeSixTimesSeven = () =>
  callTool('evaluate', {
    source: '6 * 7',
    codeNames: [],
    petNamePaths: [],
    resultName: 'answer',
    workerName: '#undefined',
  });

describe('pending asks survive a restart', () => {
  test('a request answered after a daemon restart reaches the message it was made for, with the value', async () => {
    const { run, origin } = await startAsking(() =>
      callTool('request', {
        recipient: 'HOST',
        description: 'the door code',
        responseName: 'door-code',
      }),
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(
          /^ANSWERED: HOST answered your request r1 to HOST \("the door code"\), kept as "door-code": "?1234/,
        );
        return callTool('reply', { messageNumber: origin(), strings: ['The code is 1234'] });
      },
    ]);
    await E(run.host.host).storeValue(harden('1234'), 'code');
    await E(run.host.host).resolve(asked!.number, 'code');
    const answer = await run.reply('The code is 1234');
    // A reply, not a send: the message that asked was kept answerable while the request waited.
    expect(answer.replyTo).toBeDefined();
    await expect.poll(() => pendingIds(run)).toEqual([]);
    await expect.poll(async () => (await ownRequestCopies(run)).length).toBe(0);
  });

  test('a request declined while the agent was down is told to its sender', async () => {
    const { run, origin } = await startAsking(() =>
      callTool('request', { recipient: 'HOST', description: 'the door code' }),
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(/^DECLINED: HOST did not grant your request r1/);
        // The copy in the inbox keeps only that it was declined: the notice says so, not the reason.
        expect(notice).toContain(
          'their reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was declined',
        );
        expect(notice).not.toContain('not telling');
        return callTool('reply', { messageNumber: origin(), strings: ['HOST said no'] });
      },
    ]);
    await E(run.host.host).reject(asked!.number, 'not telling');
    await run.reply('HOST said no');
  });

  test('a request answered while the agent was down, with no responseName, says the value did not reach it', async () => {
    const { run, origin } = await startAsking(() =>
      callTool('request', { recipient: 'HOST', description: 'the door code' }),
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(/^ANSWERED: HOST answered your request r1/);
        expect(notice).toContain(
          'the value itself did not reach me: I learnt the answer from my copy of the request, which keeps only that it was answered; give a responseName to keep answers',
        );
        return callTool('reply', { messageNumber: origin(), strings: ['answered'] });
      },
    ]);
    await E(run.host.host).storeValue(harden('1234'), 'code');
    await E(run.host.host).resolve(asked!.number, 'code');
    await run.reply('answered');
  });

  test('an approval given after a restart lets the model make that call once without asking again', async () => {
    const { run, origin } = await startAsking(
      () => callTool('makeDirectory', { petNamePath: ['box'] }),
      {
        env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
      },
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        expect(request.messages.at(-1)!.content).toMatch(
          /^APPROVED: HOST approved the call makeDirectory .*\(approval a1\), but I restarted meanwhile/,
        );
        return callTool('makeDirectory', { petNamePath: ['box'] });
      },
      request => {
        expect(request.messages.at(-1)!.content).not.toMatch(/pending/);
        return callTool('reply', { messageNumber: origin(), strings: ['The box is made'] });
      },
    ]);
    await expect.poll(() => run.help()).toMatch(/waiting for HOST's approval a1: makeDirectory/);
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked!.number, 'yes');
    await run.reply('The box is made');
    expect(await guest(run).has('box')).toBe(true);
    // The HOST was asked once.
    expect(await hostRequests(run)).toHaveLength(1);
  });

  test('an approval refused after a restart is told as REFUSED', async () => {
    const { run, origin } = await startAsking(
      () => callTool('makeDirectory', { petNamePath: ['box'] }),
      {
        env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
      },
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        expect(request.messages.at(-1)!.content).toMatch(
          /^REFUSED: HOST refused the call makeDirectory/,
        );
        return callTool('reply', { messageNumber: origin(), strings: ['Not allowed'] });
      },
    ]);
    await E(run.host.host).reject(asked!.number, 'no boxes');
    await run.reply('Not allowed');
    expect(await guest(run).has('box')).toBe(false);
  });

  test('newest daemon: an evaluation the host approves after a restart runs then, and its result is told', async () => {
    const { run, origin } = await startAsking(
      () =>
        callTool('evaluate', {
          source: '6 * 7',
          codeNames: [],
          petNamePaths: [],
          resultName: 'answer',
        }),
      {
        profile: 'newest',
      },
    );
    const [asked] = await hostRequests(run);
    await run.restart([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(/^GRANTED: @host agreed and the daemon ran your proposal p1/);
        expect(notice).toContain('42');
        return callTool('reply', { messageNumber: origin(), strings: ['It is 42'] });
      },
    ]);
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked!.number, 'yes');
    await run.reply('It is 42');
    expect(await guest(run).lookup('answer')).toBe(42);
  });

  const evaluateSixTimesSeven = () =>
    callTool('evaluate', {
      source: '6 * 7',
      codeNames: [],
      petNamePaths: [],
      resultName: 'answer',
    });

  test('newest daemon: an evaluation the host refuses after a restart is told REJECTED, and nothing runs', async () => {
    const { run, origin } = await startAsking(evaluateSixTimesSeven, { profile: 'newest' });
    const [asked] = await hostRequests(run);
    let notice = '';
    await run.restart([
      request => {
        notice = request.messages.at(-1)!.content;
        return callTool('reply', { messageNumber: origin(), strings: ['The host said no'] });
      },
    ]);
    await E(run.host.host).reject(asked!.number, 'not today');
    await run.reply('The host said no');
    expect(notice).toMatch(
      /^REJECTED: @host did not run your proposal p1 \(6 \* 7\)\. Reason: refused \(the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused\)\nNext: tell @host, who asked in message #\d+/,
    );
    expect(await guest(run).has('answer')).toBe(false);
    await expect.poll(() => pendingIds(run)).toEqual([]);
  });

  test('newest daemon: an evaluation whose request is gone after a restart is told NOT RUN (the agent runs approved code itself)', async () => {
    const { run, origin } = await startAsking(evaluateSixTimesSeven, { profile: 'newest' });
    let notice = '';
    await run.restart([
      request => {
        notice = request.messages.at(-1)!.content;
        return callTool('reply', { messageNumber: origin(), strings: ['I cannot tell'] });
      },
    ]);
    // Before the agent follows it again, its own copy of the request is gone.
    const [copy] = await ownRequestCopies(run);
    await guest(run).dismiss(copy!.number);
    await run.reply('I cannot tell');
    expect(notice).toMatch(
      /^NOT RUN: your proposal p1 \(6 \* 7\) was still waiting for the host when I restarted, and the restart ended it: no approval of it reached me, and I am the one who runs approved code, and the host can no longer grant it\./,
    );
    expect(await guest(run).has('answer')).toBe(false);
  });

  test('newest daemon, LAL_DIRECT_EVAL: code still running at a restart is told UNKNOWN, not run again', async () => {
    const { run, origin } = await startAsking(
      () =>
        callTool('evaluate', {
          source: 'new Promise(() => {})',
          codeNames: [],
          petNamePaths: [],
          resultName: 'never',
        }),
      { profile: 'newest', env: { LAL_DIRECT_EVAL: '1' } },
    );
    let notice = '';
    await run.restart([
      request => {
        notice = request.messages.at(-1)!.content;
        return callTool('reply', { messageNumber: origin(), strings: ['It may have run'] });
      },
    ]);
    await run.reply('It may have run');
    expect(notice).toMatch(
      /^UNKNOWN: your proposal p1 \(new Promise\(\(\) => \{\}\)\) was running when I restarted, and I cannot tell whether it finished\.\nNext: look for its result name "never"/,
    );
    await expect.poll(() => pendingIds(run)).toEqual([]);
  });

  test('f0a46042a: an eval-proposal granted while the agent restarts (worker died) is told with its result', async () => {
    const { run, origin } = await startAsking(proposeSixTimesSeven);
    const proposal = await waitForMessage(
      run.host,
      (message: Message) => message.type === 'eval-proposal-reviewer',
    );
    await run.restartAgent([
      request => {
        const notice = request.messages.at(-1)!.content;
        expect(notice).toMatch(
          /^GRANTED: the host ran your proposal p1 \(6 \* 7\) while I restarted\. Result, kept as "answer": 42/,
        );
        return callTool('reply', { messageNumber: origin(), strings: ['It is 42'] });
      },
    ]);
    await run.host.grant(proposal.number);
    await run.reply('It is 42');
    // The proposer copy goes once settled (an undismissed one keeps the mailbox from loading after a daemon restart).
    await expect
      .poll(
        async () =>
          asMessages(await guest(run).listMessages()).filter(
            message => message.type === 'eval-proposal-proposer',
          ).length,
      )
      .toBe(0);
    await expect.poll(() => pendingIds(run)).toEqual([]);
  });
});

describe('f0a46042a: an eval-proposal whose copy is gone after a restart', () => {
  const proposerCopies = async (run: AgentRun) =>
    asMessages(await guest(run).listMessages()).filter(
      message => message.type === 'eval-proposal-proposer',
    );

  /**
   * Restarts the agent with its proposal's copy gone (as the guide's recovery by hand leaves it,
   * docs/daemon-guide.md, "Recovering from a pending eval-proposal"); resolves to what it was told.
   */
  const toldAfterCopyGone = async (
    before?: (run: AgentRun) => Promise<void>,
    options: StartOptions = {},
  ) => {
    const { run, origin } = await startAsking(proposeSixTimesSeven, options);
    await before?.(run);
    let notice = '';
    const [copy] = await proposerCopies(run);
    await guest(run).dismiss(copy!.number);
    await run.restartAgent([
      request => {
        notice = request.messages.at(-1)!.content;
        return callTool('reply', { messageNumber: origin(), strings: ['told'] });
      },
      replyStep('pong'),
    ]);
    await run.reply('told');
    await expect.poll(() => pendingIds(run)).toEqual([]);
    return { notice, run };
  };

  test('is told NOT RUN when nothing is kept under its result name: no grant came, and none can now', async () => {
    expect((await toldAfterCopyGone()).notice).toMatch(
      /^NOT RUN: your proposal p1 \(6 \* 7\) was still waiting for the host when I restarted, and the restart ended it: it was not granted \(nothing is kept as "answer"\), and the host can no longer grant it\.\nNext: propose it again only if it is still needed/,
    );
  });

  test('is told UNKNOWN when a value is kept under its result name (an earlier proposal may have left it)', async () => {
    const { notice } = await toldAfterCopyGone(run => guest(run).storeValue(harden(41), 'answer'));
    expect(notice).toMatch(
      /^UNKNOWN: I restarted while your proposal p1 \(6 \* 7\) waited for the host, and I can no longer tell whether it ran\./,
    );
  });

  // At f0a46042a a dismissal the daemon refuses (`Invalid request number 13`) is a raw CapTP
  // exception in the agent's worker log, though the agent ignores it.
  test('the message it belongs to is dismissed once: the daemon refuses no dismissal', async () => {
    const { refused, wrap } = recordRefusals();
    const { run } = await toldAfterCopyGone(undefined, { wrapPowers: wrap });
    // A later message's turn comes after the told turn's end is done with.
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(async () => asMessages(await guest(run).listMessages())).toEqual([]);
    expect(refused).toEqual([]);
  });
});

describe('an outcome not yet told when the agent restarts', () => {
  test('an answer that came while another turn ran is told after the restart, not lost', async () => {
    const { run, origin } = await startAsking(() =>
      callTool('request', {
        recipient: 'HOST',
        description: 'the door code',
        responseName: 'door-code',
      }),
    );
    const [asked] = await hostRequests(run);
    // A second message whose turn is still running when the answer comes.
    let started!: () => void;
    const turnRunning = new Promise<void>(resolve => {
      started = resolve;
    });
    run.provider.push(() => {
      started();
      return new Promise(() => {});
    });
    await run.send('take your time');
    await turnRunning;
    await E(run.host.host).storeValue(harden('1234'), 'code');
    await E(run.host.host).resolve(asked!.number, 'code');
    // The outcome waits for the running turn; it is in the store before its request's copy goes.
    await expect.poll(async () => (await ownRequestCopies(run)).length).toBe(0);
    await run.restart([
      request => {
        // The stored outcome gets the first turn after the restart.
        expect(request.messages.at(-1)!.content).toContain(
          'ANSWERED: HOST answered your request r1 to HOST ("the door code"), kept as "door-code": "1234"',
        );
        return callTool('reply', { messageNumber: origin(), strings: ['The code is 1234'] });
      },
      replyStep('done waiting'),
    ]);
    await run.reply('The code is 1234');
    await run.reply('done waiting');
  });
});

describe('the quota over a restart', () => {
  test('a held sender is told once, not again after a restart, and the note goes when the message is served', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, env: { LAL_MAX_CALLS_PER_HOUR: '1' }, steps: [say('first')] });
    await run.send('one');
    await run.reply('first');
    await run.send('two');
    const toldTwo = (await run.reply(/hour's budget/)).strings!.join('');
    const two = /#(\d+)/.exec(toldTwo)![1];
    await expect.poll(async () => (await stored(run)).holds ?? []).toHaveLength(1);
    await run.restart([]);
    // Served in order: once "three" is held and told, "two" (replayed first) has been held again.
    await run.send('three');
    expect((await run.reply(/hour's budget/)).strings!.join('')).not.toContain(`#${two} `);
    const toldAboutTwo = asMessages(await E(run.host.host).listMessages()).filter(message =>
      (message.strings ?? []).join('').includes(`Your message #${two} is kept`),
    );
    expect(toldAboutTwo).toHaveLength(1);
    // Saved after the piece of work that held it, which may be just after the sender was told.
    await expect.poll(async () => (await stored(run)).holds).toHaveLength(2);
    run.provider.push(say('second'));
    clock.advance(60 * 60_000);
    await run.reply('second');
    // "two" is served and forgotten; "three" is held again by the next hour's budget (its sender told already).
    await expect.poll(async () => (await stored(run)).holds).toHaveLength(1);
  });
});
