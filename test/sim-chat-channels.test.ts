/**
 * The simulator's /channel commands (sim/chat/channel-commands.ts) against
 * the agent through make() in the newest daemon's double: a newcomer makes a
 * channel, posts as another member naming @lal, and reads the answer.
 */
import { describe, expect, test } from 'vitest';
import { parseCommand } from '../sim/chat/commands.js';
import { runChannelCommand } from '../sim/chat/channel-commands.js';
import { say, type Step } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';
import { E } from '@endo/far';
import { readStream } from '../src/daemon/stream-reader-client.js';

const agents = useAgents();

const channelCommand = (line: string) => {
  const parsed = parseCommand(line);
  if (parsed.kind !== 'channel')
    throw new Error(`not a channel command: ${JSON.stringify(parsed)}`);
  return parsed;
};

describe('the simulator’s /channel commands', () => {
  test('parses new, post (as you or as a member) and show, and words a wrong one with the usage', () => {
    expect(parseCommand('/channel new general')).toEqual({
      kind: 'channel',
      action: 'new',
      channel: 'general',
    });
    expect(parseCommand('/channel post general as bob hi @lal')).toEqual({
      kind: 'channel',
      action: 'post',
      channel: 'general',
      member: 'bob',
      text: 'hi @lal',
    });
    expect(parseCommand('/channel post general hello')).toMatchObject({
      member: 'you',
      text: 'hello',
    });
    expect(parseCommand('/channel post general')).toMatchObject({
      kind: 'error',
      error: expect.stringContaining('/channel new <name>'),
    });
  });

  test('a channel made, a member mentions @lal, and the agent’s answer shows in the thread', async () => {
    const answer: Step = (_request, _signal, onText) => {
      onText('Fo');
      return say('Four.');
    };
    const run = await agents.start({ profile: 'newest', steps: [answer] });
    const { host } = run;
    expect(await runChannelCommand(channelCommand('/channel new general'), host, 'lal')).toMatch(
      /Channel general made/,
    );
    expect(
      await runChannelCommand(
        channelCommand('/channel post general as bob what is 2+2? @lal'),
        host,
        'lal',
      ),
    ).toMatch(/invited and told/);
    // Wait for the answer (a quick one is one plain reply) in the channel itself, then read the channel as the command shows it.
    const stream = readStream(
      await E(host.host)
        .lookup('general')
        .then(channel =>
          E(channel as never as { followMessages(): Promise<unknown> }).followMessages(),
        ),
    );
    for (;;) {
      const step = await stream.next();
      const post = step.value as { strings: string[]; replyType?: string };
      if (post.strings.join('') === 'Four.') break;
    }
    void stream.return();
    const shown = await runChannelCommand(channelCommand('/channel show general'), host, 'lal');
    expect(shown).toMatch(/^#0 bob: what is 2\+2\? @lal$/m);
    expect(shown).toMatch(/^#1 lal \(re #0\): Four\.$/m);
  });

  test('a channel that is not there is said so, with how to make one and the channels there are', async () => {
    const run = await agents.start({ profile: 'newest' });
    const post = channelCommand('/channel post nosuch hello');
    await expect(runChannelCommand(post, run.host, 'lal')).rejects.toThrow(
      'There is no channel named "nosuch": /channel new <name> makes one (you have none yet)',
    );
    await runChannelCommand(channelCommand('/channel new team'), run.host, 'lal');
    await expect(
      runChannelCommand(channelCommand('/channel show nosuch'), run.host, 'lal'),
    ).rejects.toThrow(/^There is no channel named "nosuch": .* \(yours: team\)$/);
    // A name the HOST holds that is something else is not taken for a channel.
    await expect(
      runChannelCommand(channelCommand('/channel post @self hi'), run.host, 'lal'),
    ).rejects.toThrow(/^"@self" is not a channel: \/channel new <name> makes one \(yours: team\)$/);
  });

  test("the person's post answered: the turn's title names them in one pair of quotes", async () => {
    const run = await agents.start({ profile: 'newest', steps: [() => say('Hi.')] });
    await runChannelCommand(channelCommand('/channel new team'), run.host, 'lal');
    await runChannelCommand(channelCommand('/channel post team hello @lal'), run.host, 'lal');
    const start = await run.untilEvent(
      event => event.kind === 'turn-start' && event.title.startsWith('in channel'),
    );
    expect(start).toMatchObject({
      title: 'in channel "team": #0 from member 0 (named "you")',
    });
  });

  test('a name already taken is refused, so a channel is never lost to a second /channel new (its posts stay)', async () => {
    const run = await agents.start({ profile: 'newest' });
    await runChannelCommand(channelCommand('/channel new room'), run.host, 'lal');
    await runChannelCommand(
      channelCommand('/channel post room an important note'),
      run.host,
      'lal',
    );
    await expect(
      runChannelCommand(channelCommand('/channel new room'), run.host, 'lal'),
    ).rejects.toThrow(
      'You already have a channel named "room" (/channel show room reads it); /channel new <another name> makes another',
    );
    expect(await runChannelCommand(channelCommand('/channel show room'), run.host, 'lal')).toBe(
      '#0 you: an important note',
    );
    // A name the HOST holds for something else is not replaced by a channel either.
    await expect(
      runChannelCommand(channelCommand('/channel new @self'), run.host, 'lal'),
    ).rejects.toThrow(
      /^"@self" is already one of your names \(not a channel\); \/channel new <another name>/,
    );
    expect(await E(run.host.host).locate('@self')).not.toMatch(/type=channel/);
  });

  test('a channel name is one word: more words after it are refused, not dropped', () => {
    for (const line of ['/channel new a b', '/channel show a b']) {
      expect(parseCommand(line)).toEqual({
        kind: 'error',
        error: expect.stringMatching(
          /^A channel's name is one word \("a b" is more\)\. Usage: \/channel new <name>/,
        ),
      });
    }
  });

  test('on f0a46042a the simulator says channels need --newest', async () => {
    const run = await agents.start({});
    await expect(
      runChannelCommand(channelCommand('/channel new general'), run.host, 'lal'),
    ).rejects.toThrow(/--newest/);
  });
});
