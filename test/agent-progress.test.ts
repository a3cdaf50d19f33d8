/**
 * Live progress in the chat (issue 17, newest daemon only): a turn about the
 * host's message starts with a placeholder reply that is edited to
 * `done: false`, edited as the turn goes (at most once a second, the latest
 * status winning), and ends `done: true` with the answer or the failure.
 * Under lockdown, through make() and E(), with a manual clock.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { ProviderError } from '../providers/types.js';
import { callTool, say } from './support/scripted-provider.js';
import { makeManualClock } from './support/manual-clock.js';
import {
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
  type StartOptions,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const agents = useAgents();
// Posted at once, as the tests below look for it while the model thinks (the delay: its own tests).
const start = (options: StartOptions) =>
  agents.start({ ...options, env: { LAL_PROGRESS_AFTER_MS: '0', ...options.env } });

interface Revision {
  envelope: { strings: string[] };
  done: boolean;
}

/** The host's copy of the agent's placeholder: the first package from the agent after its greeting. */
const placeholderIn = async (run: AgentRun): Promise<Message> =>
  waitForMessage(
    run.host,
    message =>
      message.type === 'package' &&
      message.number !== run.greeting!.number &&
      message.from === run.greeting!.from,
  );

/** The revisions of that message as the host sees them: text and done, oldest first. */
const revisionsOf = async (run: AgentRun, number: bigint) =>
  ((await E(run.host.host).messageHistory(number)) as unknown as Revision[]).map(revision => ({
    text: revision.envelope.strings.join(''),
    done: revision.done,
  }));

/** Waits until the host's copy of the placeholder is finished, then returns its revisions. */
const finishedRevisions = async (run: AgentRun, number: bigint) => {
  await waitForMessage(
    run.host,
    message =>
      message.number === number && message.done === true && textOf(message) !== 'thinking…',
  );
  return revisionsOf(run, number);
};

/** Packages from the agent to the host other than its greeting. */
const agentPackages = async (run: AgentRun) => {
  const inbox = (await E(run.host.host).listMessages()) as unknown as Message[];
  // As listMessages writes it (a locator on the newest daemon).
  const agent = inbox.find(message => message.number === run.greeting!.number)!.from;
  return inbox.filter(
    message =>
      message.type === 'package' &&
      message.from === agent &&
      message.number !== run.greeting!.number,
  );
};

describe('live progress on the newest daemon', () => {
  test('a placeholder shows done: false at once, is edited as tools are called, and ends done: true with the answer', async () => {
    const clock = makeManualClock();
    let seenUnfinished: Message | undefined;
    let ownCopyKept = false;
    const run: AgentRun = await start({
      profile: 'newest',
      clock,
      steps: [
        async () => {
          // While the model thinks, the host already sees an unfinished reply.
          seenUnfinished = await waitForMessage(
            run.host,
            message => message.from === run.greeting!.from && message.done === false,
          );
          clock.advance(1_000);
          return callTool('list', {});
        },
        async request => {
          await waitForMessage(
            run.host,
            message =>
              message.number === seenUnfinished!.number && /calling list/.test(textOf(message)),
          );
          // The agent's own copy is still there: the final edit needs it.
          const own = (await E(
            run.host.guest(run.name).powers,
          ).listMessages()) as unknown as Message[];
          ownCopyKept =
            own.length > 0 &&
            own.some(message => message.type === 'package' && message.done === false);
          clock.advance(1_000);
          return callTool('reply', {
            messageNumber: latestMessageNumber(request),
            strings: ['the answer is 42'],
          });
        },
      ],
    });
    await run.send('what is the answer?');
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions[0]).toEqual({ text: 'thinking…', done: true }); // reply cannot say done: false; the next edit does
    expect(revisions[1]).toEqual({ text: 'thinking…', done: false });
    expect(revisions.slice(1, -1).every(revision => !revision.done)).toBe(true);
    expect(revisions.some(revision => /calling list/.test(revision.text))).toBe(true);
    expect(revisions.at(-1)).toEqual({ text: 'the answer is 42', done: true });
    expect(ownCopyKept).toBe(true);
    // One message in the chat: the model's reply was the final edit, not a second message.
    expect((await agentPackages(run)).map(message => message.number)).toEqual([placeholder.number]);
    expect(placeholder.replyTo).toBeDefined();
    // Nothing is left in the agent's inbox (its copy is dismissed after the final edit).
    await expect
      .poll(async () => (await E(run.host.guest(run.name).powers).listMessages()).length)
      .toBe(0);
  });

  test('at most one edit a second: statuses in between are coalesced and the latest wins', async () => {
    const clock = makeManualClock();
    const run = await start({
      profile: 'newest',
      clock,
      steps: [
        callTool('list', {}),
        callTool('has', { petNamePath: ['tools'] }),
        request => {
          // Four statuses have come within this second; the second edit may go now, with the latest.
          clock.advance(1_000);
          return callTool('reply', {
            messageNumber: latestMessageNumber(request),
            strings: ['done'],
          });
        },
      ],
    });
    await run.send('look around');
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions).toEqual([
      { text: 'thinking…', done: true },
      { text: 'thinking…', done: false },
      { text: 'thinking (after has)…', done: false },
      { text: 'done', done: true },
    ]);
  });

  test("a streamed reply's text shows in the placeholder as it grows, one edit a second, then the whole answer", async () => {
    const clock = makeManualClock();
    let number: bigint | undefined;
    const shown = (text: string) =>
      waitForMessage(run.host, message => message.number === number && textOf(message) === text);
    const run: AgentRun = await start({
      profile: 'newest',
      clock,
      steps: [
        async (_request, _signal, onText) => {
          number = (await placeholderIn(run)).number;
          clock.advance(1_000);
          onText('The answer');
          await shown('The answer…');
          // Within the same second: held back, and the latest wins when the second has passed.
          onText('The answer is');
          onText('The answer is 42');
          clock.advance(1_000);
          await shown('The answer is 42…');
          return say('The answer is 42.');
        },
      ],
    });
    await run.send('what is the answer?');
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions).toEqual([
      { text: 'thinking…', done: true },
      { text: 'thinking…', done: false },
      { text: 'The answer…', done: false },
      { text: 'The answer is 42…', done: false },
      { text: 'The answer is 42.', done: true },
    ]);
  });

  test('a turn that fails ends its placeholder done: true with the error', async () => {
    const run = await start({
      profile: 'newest',
      steps: [new ProviderError('server', 'the model server answered 500: overloaded')],
    });
    await run.send('hello');
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions.slice(0, 2)).toEqual([
      { text: 'thinking…', done: true },
      { text: 'thinking…', done: false },
    ]);
    expect(revisions.at(-1)!.done).toBe(true);
    expect(revisions.at(-1)!.text).toMatch(
      /I stopped working on this: the model failed: .*overloaded/,
    );
    expect((await agentPackages(run)).length).toBe(1);
  });

  test('a turn that ends in plain text ends its placeholder with that text, in one message', async () => {
    const run = await start({ profile: 'newest', steps: [say('plain words')] });
    await run.send('hello');
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions[1]).toEqual({ text: 'thinking…', done: false });
    expect(revisions.at(-1)).toEqual({ text: 'plain words', done: true });
    expect((await agentPackages(run)).length).toBe(1);
  });

  test('a second reply in the same turn is a message of its own', async () => {
    const run = await start({
      profile: 'newest',
      prepare: async host => {
        await E(host.host).send('lal', ['first'], [], []);
      },
      steps: [replyStep('one'), replyStep('two'), say('')],
      env: { LAL_STOP_AFTER_ANSWER: '0' },
    });
    const placeholder = await placeholderIn(run);
    const revisions = await finishedRevisions(run, placeholder.number);
    expect(revisions[1]).toEqual({ text: 'thinking…', done: false });
    expect(revisions.at(-1)).toEqual({ text: 'one', done: true });
    await waitForMessage(
      run.host,
      message => textOf(message) === 'two' && message.number !== placeholder.number,
    );
  });

  test('a turn cancelled mid-way ends its placeholder done: true, saying so', async () => {
    const run = await start({
      profile: 'newest',
      steps: [
        (_request, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      ],
    });
    await run.send('take your time');
    const unfinished = await waitForMessage(
      run.host,
      message => message.from === run.greeting!.from && message.done === false,
    );
    await run.cancel();
    const revisions = await finishedRevisions(run, unfinished.number);
    expect(revisions.at(-1)).toEqual({
      text: expect.stringMatching(/I stopped before I finished this \(the agent was cancelled\)/),
      done: true,
    });
  });

  test('LAL_PROGRESS=0 turns it off: the answer is one plain reply, never edited', async () => {
    const run = await start({
      profile: 'newest',
      env: { LAL_PROGRESS: '0' },
      steps: [replyStep('pong')],
    });
    await run.send('ping');
    const pong = await run.reply('pong');
    expect(await revisionsOf(run, pong.number)).toEqual([{ text: 'pong', done: true }]);
    expect((await agentPackages(run)).length).toBe(1);
  });
});

describe('the placeholder waits for LAL_PROGRESS_AFTER_MS (a second by default; issue 35)', () => {
  test('a turn answered within the second is one plain reply: no placeholder, no edit, no daemon call more than with LAL_PROGRESS=0', async () => {
    const callsOf = async (env: Record<string, string>) => {
      const run = await agents.start({ profile: 'newest', env, steps: [replyStep('pong')] });
      run.host.resetCallCounts(run.name);
      await run.send('ping');
      const pong = await run.reply('pong');
      expect(await revisionsOf(run, pong.number)).toEqual([{ text: 'pong', done: true }]);
      expect((await agentPackages(run)).length).toBe(1);
      // Counted once the message is finished with (its dismissal is the last call).
      await expect.poll(() => run.host.callCounts(run.name).dismiss ?? 0).toBeGreaterThan(0);
      const { reply = 0, listMessages = 0, editMessage = 0 } = run.host.callCounts(run.name);
      return { reply, listMessages, editMessage };
    };
    const withProgress = await callsOf({});
    expect(withProgress).toEqual(await callsOf({ LAL_PROGRESS: '0' }));
    expect(withProgress.editMessage).toBe(0);
  });

  test('a turn still running after the second gets its placeholder then, and ends it with the answer', async () => {
    const clock = makeManualClock();
    let postedWhileThinking: Message | undefined;
    const run: AgentRun = await agents.start({
      profile: 'newest',
      clock,
      env: { LAL_PROGRESS_AFTER_MS: '1000' },
      steps: [
        async request => {
          expect((await agentPackages(run)).length).toBe(0);
          clock.advance(1_000);
          postedWhileThinking = await placeholderIn(run);
          return callTool('reply', {
            messageNumber: latestMessageNumber(request),
            strings: ['done thinking'],
          });
        },
      ],
    });
    await run.send('think hard');
    const revisions = await finishedRevisions(run, (await placeholderIn(run)).number);
    expect(postedWhileThinking).toBeDefined();
    expect(revisions.at(0)).toEqual({ text: 'thinking…', done: true });
    expect(revisions.at(-1)).toEqual({ text: 'done thinking', done: true });
    expect((await agentPackages(run)).length).toBe(1);
  });
});

describe('a placeholder a stopped run left unfinished', () => {
  test('is finished when the agent starts again, saying it stopped', async () => {
    const run = await start({
      profile: 'newest',
      prepare: async (host, name) => {
        // As a run killed mid-turn leaves it: the agent's reply, edited to done: false.
        const powers = host.guest(name).powers;
        await E(powers).send('@host', ['calling list…'], [], []);
        const own = (await E(powers).listMessages()) as unknown as Message[];
        await E(powers).editMessage(own.at(-1)!.number, ['calling list…'], [], [], { done: false });
      },
    });
    const hostCopy = await waitForMessage(run.host, message => textOf(message) === 'calling list…');
    const finished = await waitForMessage(
      run.host,
      message =>
        message.number === hostCopy.number &&
        message.done === true &&
        textOf(message) !== 'calling list…',
    );
    expect(textOf(finished)).toMatch(/I stopped before I finished this/);
    await expect
      .poll(async () => (await E(run.host.guest(run.name).powers).listMessages()).length)
      .toBe(0);
  });
});

describe('no placeholder on the f0a46042a daemon (it cannot edit)', () => {
  test('the answer is the only message', async () => {
    const run = await start({
      profile: 'f0a46042a',
      steps: [callTool('list', {}), replyStep('pong')],
    });
    await run.send('ping');
    const pong = await run.reply('pong');
    const packages = await agentPackages(run);
    expect(packages.map(message => message.number)).toEqual([pong.number]);
    expect(packages.some(message => textOf(message).includes('thinking'))).toBe(false);
  });
});
