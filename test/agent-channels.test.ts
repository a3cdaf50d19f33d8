/**
 * The agent in the newest daemon's channels (docs/behaviour.md 11), through
 * make() under lockdown, the channel made by the HOST in the daemon double:
 * mentioned, then joined and answering in the thread as its own member;
 * watching what it joined (each mention answered once, followed again after
 * a restart); taking part at the level people set; a channel turn built
 * from its channel only.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';
import {
  answer,
  answers,
  bobSays,
  isRouting,
  makeChannelStarter,
  mentionedBy,
  textOf,
  untilAnswer,
  untilPost,
  type Post,
} from './support/channel-setting.js';

const agents = useAgents();

type Far = any;
const startInChannel = makeChannelStarter(agents.start);

describe('channels: mentioned, then joined, answering in the thread', () => {
  test('a mention notification is answered in its channel, as the agent’s own member, not in the inbox', async () => {
    const setting = await startInChannel([answer('Four.'), say('pong')]);
    const { run, admin } = setting;
    const { placeholder, edit } = await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    expect(textOf(placeholder)).toBe('Thinking…');
    expect(await E(admin).getMember(placeholder.memberId)).toMatchObject({ invitedAs: 'lal' });
    expect(edit.memberId).toBe(placeholder.memberId);
    // One main-model call, offered no tool: the channel turn holds the channel's thread and its post.
    expect(answers(run)).toHaveLength(1);
    expect(answers(run)[0]!.toolNames).toEqual([]);
    expect(JSON.stringify(answers(run)[0]!.messages)).toContain('Bob: what is 2+2? @lal');
    // The channel by the name the chat gave it, not its maker's name in it.
    expect(answers(run)[0]!.messages[0]!.content).toContain('the channel "general"');
    // The notification was handled, not answered: the next inbox reply is the HOST's ping's.
    await run.send('ping');
    await run.reply('pong');
    const inbox = (await E(run.host.guest('lal').powers).listMessages()) as Far[];
    expect(inbox.some(message => /channel-reply-info/.test(message.strings.join('')))).toBe(false);
  });
});

describe('channels: live progress as in the inbox', () => {
  test('by default a quick answer is one plain reply in the thread: no placeholder, no edit', async () => {
    const setting = await startInChannel([answer('Four.'), answer('Five.')], {
      LAL_PROGRESS_AFTER_MS: '1000',
    });
    const { admin } = setting;
    await E(setting.bob).post(['what is 2+2? @lal'], [], []);
    await setting.run.host.mentionInChannel('general', 'lal');
    const first = await untilPost(admin, post => post.replyTo === '0');
    expect(textOf(first)).toBe('Four.');
    const next = await bobSays(setting, '@lal and 2+3?');
    const reply = await untilPost(admin, post => post.replyTo === String(next));
    expect(textOf(reply)).toBe('Five.');
    const posts = (await E(admin).listMessages()) as Post[];
    expect(posts.filter(post => post.replyType === 'edit' || textOf(post) === 'Thinking…')).toEqual(
      [],
    );
  });
});

describe('channels: watching what it joined', () => {
  test('an @mention in a joined channel is answered without a notification; one answer per mention; followed again after a restart', async () => {
    const setting = await startInChannel([answer('Four.'), answer('Hi Bob.')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    // No notification: the watch sees it.
    const hello = await bobSays(setting, '@lal hello');
    await untilAnswer(admin, hello, 'Hi Bob.');
    await run.restart([answer('Back.')]);
    // The daemon restarted: the channel's objects are new ones, and Bob joins again.
    const again = await E(setting.host).lookup('general');
    const after = await bobSays(
      { ...setting, admin: again, bob: await E(again).join('bob') },
      'still there @lal?',
    );
    await untilAnswer(again, after, 'Back.');
    expect(answers(run)).toHaveLength(1);
    const answered = ((await E(again).listMessages()) as Post[]).filter(
      post => post.replyType === undefined && post.memberId !== '0' && textOf(post) === 'Thinking…',
    );
    expect(answered.map(post => post.replyTo)).toEqual(['0', String(hello), String(after)]);
    expect(await run.help()).toMatch(/ch-1 "general": normal/);
  });

  test('the notification and the watch of one mention make one answer', async () => {
    let release!: () => void;
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    const setting = await startInChannel([
      answer('Four.'),
      // The HOST's turn holds the agent while Bob's mention and its notification arrive.
      async () => {
        await held;
        return say('done');
      },
      answer('Once.'),
      answer('Next.'),
    ]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    await run.send('hold on');
    await run.untilEvent(event => event.kind === 'model-call');
    const once = await bobSays(setting, '@lal once');
    await run.host.mentionInChannel('general', 'lal');
    release();
    await untilAnswer(admin, once, 'Once.');
    const next = await bobSays(setting, '@lal next');
    await untilAnswer(admin, next, 'Next.');
    const placeholders = ((await E(admin).listMessages()) as Post[]).filter(
      post => post.replyTo === String(once) && post.replyType === undefined,
    );
    expect(placeholders).toHaveLength(1);
  });

  // Seen in the chat UI (1ef30c259): "@lal back to normal" was acknowledged at once, and the
  // chat, which reads the channel only after its post, named that acknowledgement as the
  // message to answer (the last one); the agent answered its own words with a model call.
  test('a notification that names the agent’s own post is about the mention it answered: nothing more is said', async () => {
    const setting = await startInChannel([answer('Four.'), say('pong')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const asked = await bobSays(setting, '@lal be quieter');
    const ack = await untilPost(admin, post => post.replyTo === String(asked));
    expect(textOf(ack)).toBe('Understood: here I now speak only when a message clearly needs me.');
    await run.host.mentionInChannel('general', 'lal');
    // The inbox is served in order: once the ping is answered, the notification was handled.
    await run.send('ping');
    await run.reply('pong');
    const posts = (await E(admin).listMessages()) as Post[];
    expect(posts.filter(post => post.replyTo === String(ack.number))).toEqual([]);
    expect(posts.filter(post => post.replyTo === String(asked))).toHaveLength(1);
    expect(answers(run)).toHaveLength(2);
  });

  test('leaving is the HOST’s: channels("leave") stops following and forgets the channel', async () => {
    const setting = await startInChannel([answer('Four.')]);
    const { run } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    expect(await run.channels()).toMatch(/^ch-1 "general": normal/);
    expect(await run.channels('leave', 'ch-1')).toBe('Left ch-1.');
    expect(await run.channels()).toBe('No channel joined.');
    await expect(run.channels('leave', 'ch-1')).rejects.toThrow(/no joined channel "ch-1"/);
  });
});

describe('channels: taking part at the level people set', () => {
  test('"only when mentioned": acknowledged without a model call, then 100 unaddressed messages cost no model call', async () => {
    const setting = await startInChannel([answer('Four.'), answer('Pong.')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const asked = await bobSays(setting, '@lal please only speak when mentioned here');
    const ack = await untilPost(admin, post => post.replyTo === String(asked));
    expect(textOf(ack)).toBe('Understood: here I now speak only when mentioned.');
    expect(await run.help()).toMatch(/ch-1 "general": observer/);
    for (let i = 0; i < 100; i += 1) await E(setting.bob).post([`chatter ${i}`], [], []);
    const ping = await bobSays(setting, '@lal ping');
    await untilAnswer(admin, ping, 'Pong.');
    expect(run.provider.requests.filter(isRouting)).toHaveLength(0);
    expect(answers(run)).toHaveLength(2);
  });

  test('plain words move the level the way they say, a step at a time; words that cannot be told change nothing and say so', async () => {
    const setting = await startInChannel([answer('Four.')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const level = async (words: string) => {
      const asked = await bobSays(setting, words);
      const ack = await untilPost(admin, post => post.replyTo === String(asked));
      return { said: textOf(ack), level: (await run.channels()).match(/: (\w+) \(/)![1] };
    };
    expect(await level('@lal speak more slowly please')).toMatchObject({ level: 'quiet' });
    expect(await level('@lal slow down even more')).toMatchObject({ level: 'observer' });
    expect(await level('@lal be quiet')).toMatchObject({ level: 'observer' });
    expect(await level('@lal you can chime in more often')).toMatchObject({ level: 'quiet' });
    // "Do" before a verb stresses the request; it is no question ("do you …?").
    expect(await level('@lal do speak up')).toMatchObject({ level: 'normal' });
    const unclear = await level('@lal be quieter but jump in more');
    expect(unclear.level).toBe('normal');
    expect(unclear.said).toMatch(/^I left how readily I speak here as it was \(normal: /);
    // None of these asked the model: one call, the first mention's answer.
    expect(answers(run)).toHaveLength(1);
  });

  test('a question that only names a level is answered, not taken for one', async () => {
    const setting = await startInChannel([
      answer('Four.'),
      answer('One who watches.'),
      answer('It is.'),
    ]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const observer = await bobSays(setting, '@lal done observer? what does an observer do?');
    await untilAnswer(admin, observer, 'One who watches.');
    const quieter = await bobSays(setting, '@lal is it quieter at night?');
    await untilAnswer(admin, quieter, 'It is.');
    expect(await run.channels()).toMatch(/^ch-1 "general": normal/);
    expect(answers(run)).toHaveLength(3);
  });

  test('at "normal", each unaddressed message costs one routing request, and a burst never queues the HOST behind it', async () => {
    const no = say('no');
    const setting = await startInChannel(
      [
        answer('Four.'),
        // The first routing request: the HOST writes meanwhile, and is served before the rest of the burst.
        async () => {
          await setting.run.send('ping');
          return say('no');
        },
        say('pong'),
        ...Array.from({ length: 19 }, () => no),
        say('yes'),
        answer('Joining in.'),
      ],
      { LAL_ROUTER_MODEL: 'small-model' },
    );
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    for (let i = 0; i < 20; i += 1) await E(setting.bob).post([`chatter ${i}`], [], []);
    await run.reply('pong');
    const last = await bobSays(setting, 'does anyone know?');
    await untilAnswer(admin, last, 'Joining in.');
    expect(run.provider.requests.filter(isRouting)).toHaveLength(21);
    // The routing model is told the level; the answer goes to the main model.
    expect(run.provider.requests.find(isRouting)!.messages[0]!.content).toMatch(/speaks when/);
    expect(answers(run).map(request => request.messages.at(-1)!.content)).toEqual([
      expect.stringContaining('Answer #0'),
      expect.stringMatching(/: ping$/),
      expect.stringContaining(`Answer #${last}`),
    ]);
  });
});

describe('channels: a space of many parties', () => {
  test('a channel turn holds neither the HOST’s private words nor another channel’s', async () => {
    const setting = await startInChannel([say('Noted.'), answer('Four.'), answer('Other.')]);
    const { run, host } = setting;
    await run.send('my secret is PINEAPPLE');
    await run.reply('Noted.');
    const other = await E(host).makeChannel('other', 'Alice');
    await E(other).post(['the other channel says MANGO @lal'], [], []);
    await run.host.mentionInChannel('other', 'lal');
    await untilAnswer(other, 0n, 'Four.');
    await mentionedBy(setting, 'what do you know? @lal', 'Other.');
    const channelTurn = JSON.stringify(answers(run).at(-1)!.messages);
    expect(channelTurn).toContain('what do you know?');
    expect(channelTurn).not.toContain('PINEAPPLE');
    expect(channelTurn).not.toContain('MANGO');
    expect(channelTurn).toMatch(/untrusted/);
  });

  test("authors go by the channel's current member names: a rename shows in the next turn, without a restart", async () => {
    const setting = await startInChannel([answer('Four.'), answer('Hello Robert.')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    expect(answers(run)[0]!.messages[1]!.content).toMatch(/#0 Bob: what is 2\+2\?/);
    await E(setting.bob).setProposedName('Robert');
    const asked = await bobSays(setting, '@lal who am I?');
    await untilAnswer(admin, asked, 'Hello Robert.');
    const shown = answers(run)[1]!.messages[1]!.content;
    expect(shown).toMatch(/#0 Robert: what is 2\+2\?/);
    expect(shown).toMatch(new RegExp(`#${asked} Robert: @lal who am I\\?`));
    expect(shown).toMatch(/from Robert\.$/);
    expect(shown).not.toMatch(/Bob/);
  });

  test('a disabled membership: one log line, no retry, no longer followed', async () => {
    const setting = await startInChannel([answer('Four.'), say('pong')]);
    const { run, admin } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const attenuator = await E(admin).getAttenuator('lal');
    await E(attenuator).setInvitationValidity(false);
    await bobSays(setting, '@lal are you there?');
    await run.send('ping');
    await run.reply('pong');
    expect(run.logs.filter(line => /has been disabled/.test(line))).toHaveLength(1);
    // Four., and the HOST's pong: nothing for the disabled membership.
    expect(answers(run)).toHaveLength(2);
  });
});

describe('channels: the store', () => {
  test('a roster this version cannot read is kept aside, never overwritten; the agent still joins on a mention', async () => {
    const newer = JSON.stringify({ version: 99, channels: [{ key: 'ch-9' }] });
    const setting = await startInChannel([answer('Four.')], {}, async (host, name) => {
      const powers = E(host.guest(name).powers as Far);
      await powers.makeDirectory('agent-channels');
      await powers.storeValue(newer, ['agent-channels', 'roster']);
    });
    const { run } = setting;
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const powers = E(run.host.guest('lal').powers as Far);
    const names = (await powers.list('agent-channels')) as string[];
    const aside = names.find(one => one.startsWith('roster-unread-'));
    expect(aside).toBeDefined();
    expect(await powers.lookup(['agent-channels', aside!])).toBe(newer);
    expect(run.logs.some(line => /did not read .*kept aside/.test(line))).toBe(true);
    expect(await run.channels()).toMatch(/^ch-1 "general": normal/);
  });
});
