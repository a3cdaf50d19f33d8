/**
 * One life for every ask (src/asks/ask-life.ts, pending-asks.ts), as the
 * daemon runs the agent: under lockdown, through make() and E(), with the
 * daemon double. Each test holds a hand mutation of the ask code that once
 * survived the suite (issue 22): an approval usable forever, a settled ask
 * left in the store, a disconnection told as a refusal, a yes after the
 * agent stopped still running the call, two asks claiming one inbox copy.
 */
import { describe, expect, test } from 'vitest';
import type { AssistantMessage } from '../providers/types.js';
import { E } from '@endo/far';
import { callTool, say, type Step } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  waitForMessage,
  type AgentRun,
  type Message,
  type StartOptions,
} from './support/agent-harness.js';
import { guest, hostRequests, startWith as startWithShared } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeBreakableRequests } from './support/breakable-requests.js';

const { start } = useAgents();

const APPROVE = { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' };

const pendingIds = async (run: AgentRun): Promise<string[]> =>
  (
    (
      JSON.parse((await guest(run).lookup(['agent-state', 'memory'])) as string) as {
        asks?: { pending: { id: string }[] };
      }
    ).asks?.pending ?? []
  ).map(ask => ask.id);
/** Every notice the model was shown (each starts with a capital word and a colon). */
const noticesSeen = (run: AgentRun): string[] => [
  ...new Set(
    run.provider.requests.flatMap(request =>
      request.messages
        .filter(message => message.role === 'user')
        // Notices that came together share one message, a blank line apart.
        .flatMap(message => message.content.split(/\n\n(?=[A-Z]+: )/))
        .filter(text => /^[A-Z]+: /.test(text)),
    ),
  ),
];
const yes = async (run: AgentRun, number: bigint | number) => {
  await E(run.host.host).storeValue(harden('yes'), 'yes');
  await E(run.host.host).resolve(BigInt(number), 'yes');
};

const startWith = (first: AssistantMessage, options: StartOptions = {}) =>
  startWithShared(start, first, options);

const replyTo =
  (origin: () => number, text: string): Step =>
  () =>
    callTool('reply', { messageNumber: origin(), strings: [text] });

describe('an approval is used once', () => {
  test('approved across a restart, the call runs once without asking; the same call again asks the HOST again', async () => {
    const { run, origin } = await startWith(callTool('makeDirectory', { petNamePath: ['box'] }), {
      env: APPROVE,
    });
    await expect.poll(() => pendingIds(run)).toEqual(['a1']);
    const [asked] = await hostRequests(run);
    let second = '';
    await run.restart([
      callTool('makeDirectory', { petNamePath: ['box'] }),
      callTool('makeDirectory', { petNamePath: ['box'] }),
      request => {
        second = request.messages.at(-1)!.content;
        return callTool('reply', { messageNumber: origin(), strings: ['asked again'] });
      },
    ]);
    await yes(run, asked!.number);
    await run.reply('asked again');
    expect(await guest(run).has('box')).toBe(true);
    // The allowance was taken by the first call: the second is put to the HOST.
    expect(second).toMatch(/"status":"pending"/);
    expect(await hostRequests(run)).toHaveLength(2);
  });
});

describe('a settled ask leaves the store', () => {
  const kinds: [string, AssistantMessage, StartOptions, (run: AgentRun) => Promise<void>][] = [
    [
      'a request answered',
      callTool('request', { recipient: 'HOST', description: 'the door code' }),
      {},
      async run => yes(run, (await hostRequests(run))[0]!.number),
    ],
    [
      'a tool approval granted',
      callTool('makeDirectory', { petNamePath: ['box'] }),
      { env: APPROVE },
      async run => yes(run, (await hostRequests(run))[0]!.number),
    ],
    [
      'a host-approved evaluation (newest daemon) refused',
      callTool('evaluate', { source: '6 * 7', codeNames: [], petNamePaths: [], resultName: 'a' }),
      { profile: 'newest' },
      async run => E(run.host.host).reject((await hostRequests(run))[0]!.number, 'no'),
    ],
    [
      'an eval-proposal (f0a46042a) granted',
      callTool('evaluate', {
        source: '6 * 7',
        codeNames: [],
        petNamePaths: [],
        resultName: 'a',
        workerName: '#undefined',
      }),
      {},
      async run => {
        const proposal = await waitForMessage(
          run.host,
          (message: Message) => message.type === 'eval-proposal-reviewer',
        );
        await run.host.grant(proposal.number);
      },
    ],
  ];
  test.each(kinds)('%s', async (_kind, first, options, answer) => {
    const { run, origin } = await startWith(first, options);
    await expect.poll(() => pendingIds(run)).toHaveLength(1);
    run.provider.push(replyTo(origin, 'told'));
    await answer(run);
    await run.reply('told');
    await expect.poll(() => pendingIds(run)).toEqual([]);
    expect(await run.help()).not.toMatch(/waiting for HOST's approval/);
  });
});

describe('a disconnection is not a refusal', () => {
  /** A gated call whose request to the HOST loses its connection; the HOST still has the request. */
  const askThroughBrokenConnection = async () => {
    const breakable = makeBreakableRequests();
    breakable.breakRequests(1);
    const started = await startWith(callTool('makeDirectory', { petNamePath: ['box'] }), {
      env: APPROVE,
      wrapPowers: breakable.wrap,
    });
    await expect.poll(() => hostRequests(started.run)).toHaveLength(1);
    return started;
  };

  test("a request whose connection broke is not told REFUSED: the HOST's later yes still runs the call", async () => {
    const { run, origin } = await askThroughBrokenConnection();
    expect(await pendingIds(run)).toEqual(['a1']);
    run.provider.push(replyTo(origin, 'made'));
    await yes(run, (await hostRequests(run))[0]!.number);
    await run.reply('made');
    expect(await guest(run).has('box')).toBe(true);
    const notices = noticesSeen(run);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^APPROVED: HOST approved the call makeDirectory .*; it ran/);
    await expect.poll(() => pendingIds(run)).toEqual([]);
  });

  test('a no after the connection broke is told REFUSED without blaming a restart that never happened', async () => {
    const { run, origin } = await askThroughBrokenConnection();
    run.provider.push(replyTo(origin, 'not made'));
    await E(run.host.host).reject((await hostRequests(run))[0]!.number, 'not now');
    await run.reply('not made');
    expect(await guest(run).has('box')).toBe(false);
    const notices = noticesSeen(run);
    expect(notices).toHaveLength(1);
    // The copy in the inbox says only that the HOST refused, not why: said so, and nothing of a restart.
    expect(notices[0]).toMatch(
      /^REFUSED: HOST refused the call makeDirectory .*: refused \(the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused\)/,
    );
    expect(notices[0]).not.toMatch(/restart/);
  });
});

describe('a yes after the agent stopped', () => {
  test('does not run the call in the stopped run; the next run tells it and the model calls it once', async () => {
    const { run, origin } = await startWith(callTool('makeDirectory', { petNamePath: ['box'] }), {
      env: APPROVE,
    });
    await expect.poll(() => pendingIds(run)).toEqual(['a1']);
    await run.cancel();
    await yes(run, (await hostRequests(run))[0]!.number);
    let boxBeforeCall: boolean | undefined;
    await run.restartAgent([
      async request => {
        expect(request.messages.at(-1)!.content).toMatch(
          /^APPROVED: HOST approved the call makeDirectory .*but I restarted meanwhile, so it has not run yet/,
        );
        boxBeforeCall = await guest(run).has('box');
        return callTool('makeDirectory', { petNamePath: ['box'] });
      },
      replyTo(origin, 'made'),
    ]);
    await run.reply('made');
    expect(boxBeforeCall).toBe(false);
    expect(await guest(run).has('box')).toBe(true);
  });
});

describe('two asks of one text', () => {
  test('each takes its own copy in the inbox across a restart: one answered, the other declined', async () => {
    let origin = -1;
    const run = await start({
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('request', {
            recipient: 'HOST',
            description: 'a code',
            responseName: 'one',
          });
        },
        callTool('request', { recipient: 'HOST', description: 'a code', responseName: 'two' }),
        say(''),
      ],
    });
    await run.send('go');
    await expect.poll(() => pendingIds(run)).toEqual(['r1', 'r2']);
    const [first, second] = await hostRequests(run);
    await run.restart([
      () => callTool('reply', { messageNumber: origin, strings: ['noted'] }),
      () => callTool('reply', { messageNumber: origin, strings: ['noted'] }),
    ]);
    await E(run.host.host).storeValue(harden('1234'), 'code');
    await E(run.host.host).resolve(first!.number, 'code');
    await E(run.host.host).reject(second!.number, 'not twice');
    await expect
      .poll(() => noticesSeen(run).map(notice => notice.split(' ').slice(0, 6).join(' ')))
      .toEqual(
        expect.arrayContaining([
          'ANSWERED: HOST answered your request r1',
          'DECLINED: HOST did not grant your',
        ]),
      );
    expect(noticesSeen(run).join('\n')).toMatch(/DECLINED: HOST did not grant your request r2/);
    expect(noticesSeen(run).join('\n')).toContain('kept as "one": "1234"');
    expect(noticesSeen(run)).toHaveLength(2);
    await expect.poll(() => pendingIds(run)).toEqual([]);
  });
});
