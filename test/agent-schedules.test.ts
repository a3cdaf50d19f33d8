/**
 * A time of its own, through make() in the daemon double under a manual
 * clock (docs/how-it-works.md, "A time of its own"; docs/behaviour.md 9):
 * a recurring reminder runs once per period, a day of downtime is one turn
 * that says what was missed, the heartbeat makes no model call while idle
 * and tells nothing when nothing needs the HOST, a spent budget postpones
 * (told once), the HOST pauses, resumes and revokes through the
 * controller, triggers wake on mail and on a directory's change, and a
 * peer's schedule runs in that peer's thread against its bounds.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { callTool, say, type Step } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type AgentRun,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { fromAgentToHost } from './support/agent-observers.js';
import { makeManualClock } from './support/manual-clock.js';

const { start } = useAgents();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** The model's answer to a wake-up: it tells whom the notice names (the HOST by the daemon's name), then ends. */
const tellHost = (text: string, check?: (notice: string) => void): Step[] => [
  request => {
    const notice = request.messages.at(-1)!.content;
    check?.(notice);
    const recipient = /send\("([^"]+)"/.exec(notice)?.[1] ?? 'HOST';
    return callTool('send', { recipient, strings: [text] });
  },
  say(''),
];

/** The model names bob as the HOST introduced him (the HOST's first message), and says so. */
const adoptBob: Step[] = [
  request =>
    callTool('mail', {
      op: 'adopt',
      messageNumber: latestMessageNumber(request),
      edgeName: 'bob',
      petName: 'bob',
    }),
  replyStep('noted'),
];

describe.each(DAEMON_PROFILES)('schedules on the %s daemon', profile => {
  test('every hour: one turn an hour; a day of downtime is one turn that counts what was missed', async () => {
    const clock = makeManualClock();
    const run = await start({
      profile,
      clock,
      steps: [
        callTool('schedule', { note: 'remind HOST to stretch', every: '1h' }),
        replyStep('Every hour, then.'),
      ],
    });
    await run.send('remind me to stretch every hour');
    await run.reply('Every hour, then.');
    expect(await run.schedules()).toMatch(
      /^- w1 every 1h \(next 2026-11-23T10:00:00\.000Z, 0 run\(s\)\) for (HOST|@host): "remind HOST to stretch"$/,
    );
    for (let hour = 1; hour <= 3; hour += 1) {
      run.provider.push(
        ...tellHost(`Stretch (${hour})`, notice => {
          expect(notice).toMatch(/^WAKE-UP w1: the time you set has come/);
          expect(notice).toContain('It recurs: every 1h.');
          expect(notice).not.toContain('fell due since');
        }),
      );
      clock.advance(HOUR);
      await run.reply(`Stretch (${hour})`);
    }
    // Two model calls a run (the send, then the end): nothing ran twice.
    await expect.poll(() => run.provider.requests.length).toBe(2 + 3 * 2);

    // Down for a day: on its return one turn, which says how many runs it stands for.
    expect(await run.schedules()).toMatch(/next 2026-11-23T13:00:00\.000Z, 3 run\(s\)/);
    await run.cancel();
    clock.advance(DAY);
    await run.restart(
      tellHost('Stretch (after the break)', notice => {
        expect(notice).toContain(
          '24 runs fell due since 2026-11-23T13:00:00.000Z while I could not run',
        );
      }),
    );
    await run.reply('Stretch (after the break)');
    await expect.poll(() => run.provider.requests.length).toBe(2);
    expect(await run.schedules()).toMatch(/next 2026-11-24T13:00:00\.000Z, 4 run\(s\)/);
    // And then on its rhythm again.
    run.provider.push(...tellHost('Stretch (on time)'));
    clock.advance(HOUR);
    await run.reply('Stretch (on time)');
    await expect.poll(() => run.provider.requests.length).toBe(4);
  });

  test('a restart in the middle of a period keeps its time, and nothing runs twice', async () => {
    const clock = makeManualClock();
    const run = await start({
      profile,
      clock,
      steps: [callTool('schedule', { note: 'check the oven', every: '2h' }), replyStep('ok')],
    });
    await run.send('check the oven every two hours');
    await run.reply('ok');
    // The controller's call waits its turn behind the one in progress: the turn is over and stored.
    await run.schedules();
    clock.advance(HOUR);
    await run.restart(tellHost('Oven checked'));
    clock.advance(HOUR - 1);
    expect(run.provider.requests).toHaveLength(0);
    clock.advance(1);
    await run.reply('Oven checked');
    await run.schedules();
    await run.restart();
    clock.advance(HOUR);
    expect(await run.schedules()).toMatch(
      /w1 every 2h \(next 2026-11-23T13:00:00\.000Z, 1 run\(s\)\)/,
    );
    expect(run.provider.requests).toHaveLength(0);
  });
});

describe('the heartbeat', () => {
  test('an idle day with a 30-minute heartbeat makes no model call', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, env: { LAL_HEARTBEAT: '30m' } });
    for (let step = 0; step < 48; step += 1) clock.advance(30 * MIN);
    expect(run.provider.requests).toHaveLength(0);
    expect(await run.schedules()).toBe('No schedules.');
  });

  test('checks run quietly: nothing reaches the HOST unless something needs it', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      steps: [
        callTool('schedule', { note: 'is the build green?', every: 'heartbeat' }),
        replyStep('on my list'),
      ],
    });
    await run.send('keep an eye on the build');
    await run.reply('on my list');
    const before = (await fromAgentToHost(run)).length;
    // A quiet look: the model ends without a word and no one is told.
    let looked = 0;
    run.provider.push(request => {
      looked += 1;
      expect(request.messages.at(-1)!.content).toMatch(
        /^HEARTBEAT: 1 item of your checklist to look at now:\n- w1: "is the build green\?"/,
      );
      return say('All green, nothing to report.');
    });
    clock.advance(30 * MIN);
    await expect.poll(() => looked).toBe(1);
    await expect
      .poll(() => run.events.filter(event => event.kind === 'turn-end').length)
      .toBeGreaterThan(1);
    expect((await fromAgentToHost(run)).length).toBe(before);
    // Something needs the HOST: told.
    run.provider.push(...tellHost('The build is red'));
    clock.advance(30 * MIN);
    await run.reply('The build is red');
  });
});

describe('under the HOST’s hand and inside the budget', () => {
  test('a spent budget postpones a scheduled turn, told once, and it runs once when it frees up', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_CALLS_PER_HOUR: '2' },
      steps: [
        callTool('schedule', { note: 'ping the server', every: '1m' }),
        replyStep('every minute'),
      ],
    });
    await run.send('ping the server every minute');
    await run.reply('every minute');
    clock.advance(MIN);
    const told = await run.reply(/is postponed/);
    expect(textOf(told)).toBe(
      'Wake-up w1 ("ping the server") is postponed: this hour\'s budget is spent (2 of 2 model calls this hour (LAL_MAX_CALLS_PER_HOUR)). It runs at 2026-11-23T10:00:00.000Z, once, whatever fell due meanwhile.',
    );
    for (let minute = 0; minute < 30; minute += 1) clock.advance(MIN);
    expect(
      (await fromAgentToHost(run)).filter(message => /postponed/.test(textOf(message))),
    ).toHaveLength(1);
    expect(run.provider.requests).toHaveLength(2);
    run.provider.push(
      ...tellHost('Server pinged', notice =>
        expect(notice).toMatch(/60 runs fell due since 2026-11-23T09:01:00\.000Z/),
      ),
    );
    // 09:31 now; the hour's budget frees at 10:00.
    clock.advance(29 * MIN);
    await run.reply('Server pinged');
    await expect.poll(() => run.provider.requests.length).toBe(4);
  });

  test('the HOST lists, pauses, resumes and revokes through the controller', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      steps: [
        callTool('schedule', {
          note: 'water the plants',
          every: 'cron 0 * * * *, 5 times',
        }),
        replyStep('ok'),
      ],
    });
    await run.send('water the plants on the hour, five times');
    await run.reply('ok');
    expect(await run.schedules('list')).toBe(
      '- w1 every cron 0 * * * * (next 2026-11-23T10:00:00.000Z, 0 run(s), 5 left) for HOST: "water the plants"',
    );
    expect(await run.schedules('pause', 'w1')).toBe('paused w1');
    clock.advance(3 * HOUR);
    expect(run.provider.requests).toHaveLength(2);
    expect(await run.help()).toMatch(/Wake-ups:\n- w1 every cron 0 \* \* \* \* \(paused, 5 left\)/);
    // Stored: a restart keeps it paused.
    await run.restart();
    clock.advance(HOUR);
    expect(run.provider.requests).toHaveLength(0);
    expect(await run.schedules('resume', 'w1')).toBe('resumed w1; next 2026-11-23T14:00:00.000Z');
    run.provider.push(...tellHost('Watered'));
    clock.advance(HOUR);
    await run.reply('Watered');
    expect(await run.schedules('revoke', 'w1')).toBe('revoked w1');
    expect(await run.schedules()).toBe('No schedules.');
    await expect(run.schedules('snooze', 'w1')).rejects.toThrow(
      'schedules: the action is one of list, pause, resume, revoke; got "snooze"',
    );
    await expect(run.schedules('pause')).rejects.toThrow(/needs the id of a schedule/);
    await expect(run.schedules('pause', 'w9')).rejects.toThrow(
      'No pending wake-up "w9"; pending: none',
    );
    expect(await run.help('schedules')).toMatch(
      /endo eval 'E\(agent\)\.schedules\("pause", "w2"\)'/,
    );
  });

  test('bad schedules get a one-line error with an example, and nothing is stored', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      steps: [
        callTool('schedule', { note: 'x', every: 'every so often' }),
        callTool('schedule', { note: 'x', every: 'cron 0 9 * *' }),
        callTool('schedule', { note: 'x', every: '10s' }),
        replyStep('I could not'),
      ],
    });
    await run.send('set a few');
    await run.reply('I could not');
    const results = run.provider.requests
      .slice(1)
      .map(request => (JSON.parse(request.messages.at(-1)!.content) as { error: string }).error);
    expect(results[0]).toMatch(/"every so often" is not a period or trigger; e\.g\. "30m"/);
    expect(results[1]).toMatch(/has 5 fields .* e\.g\. "0 9 \* \* 1-5"/);
    expect(results[2]).toMatch(/more often than the 1m allowed \(LAL_MIN_SCHEDULE_SECONDS\)/);
    expect(await run.schedules()).toBe('No schedules.');
  });
});

describe('triggers', () => {
  test('mail from a sender wakes the agent in the setter’s thread', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      // The introduction of bob first, then the HOST's request.
      steps: [
        ...adoptBob,
        callTool('schedule', { note: 'tell HOST when bob writes', every: 'mail from bob' }),
        replyStep('will do'),
      ],
      prepare: async (host, name) => {
        await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
        await E(host.host).send(name, ['this is bob'], ['bob'], ['bob']);
      },
    });
    await run.reply('noted');
    await run.send('tell me when bob writes');
    await run.reply('will do');
    run.provider.push(
      replyStep('hello bob'),
      ...tellHost('bob wrote', notice => {
        // The HOST's thread shows bob's finished turn in a line of its own before the wake-up:
        // what happened, not his words (docs/behaviour.md 9.11).
        expect(notice).toMatch(/^\[[^\n]*a turn for bob's message #\d+[^\n]*\n+WAKE-UP w1: /);
        expect(notice).not.toContain('hi there');
        expect(notice).toContain('"tell HOST when bob writes"');
      }),
    );
    await E(run.host.guest('bob').powers).send('lal', ['hi there'], [], []);
    await run.reply('bob wrote');
  });

  test('a change in a directory the agent holds wakes it; the names already there do not', async () => {
    const clock = makeManualClock();
    const guestPowers = (run: AgentRun) => run.host.guest(run.name).powers;
    const run = await start({
      clock,
      steps: [
        callTool('schedule', { note: 'look at what was dropped', every: 'change in drop' }),
        replyStep('watching'),
      ],
      prepare: async (host, name) => {
        await E(host.guest(name).powers).makeDirectory(['drop']);
        await E(host.guest(name).powers).storeValue('old', ['drop', 'already-there']);
      },
    });
    await run.send('watch drop/');
    await run.reply('watching');
    run.provider.push(...tellHost('something was dropped'));
    await E(guestPowers(run)).storeValue('new', ['drop', 'fresh']);
    await run.reply('something was dropped');
    await expect.poll(() => run.provider.requests.length).toBe(4);
  });
});

describe('among others', () => {
  test('a peer’s schedule runs in its thread, tells the peer, and counts against its bounds', async () => {
    const clock = makeManualClock();
    const run = await start({
      clock,
      env: { LAL_MAX_PEER_EXCHANGES: '2' },
      prepare: async (host, name) => {
        await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
        await E(host.host).send(name, ['this is bob'], ['bob'], ['bob']);
      },
      steps: adoptBob,
    });
    await run.reply('noted');
    run.provider.push(
      callTool('schedule', { note: 'remind bob to call', every: '1h' }),
      replyStep('hourly, bob'),
    );
    await E(run.host.guest('bob').powers).send('lal', ['remind me hourly to call'], [], []);
    const bobGets = (text: string) =>
      waitForMessage(run.host, message => message.type === 'package' && textOf(message) === text, {
        who: 'bob',
      });
    await bobGets('hourly, bob');
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toContain('tell bob with send("bob", …)');
      return callTool('send', { recipient: 'bob', strings: ['call now'] });
    }, say(''));
    clock.advance(HOUR);
    await bobGets('call now');
    // The second hour: bob has had his two turns without the HOST, so it waits and the HOST is told.
    clock.advance(HOUR);
    const held = await run.reply(/bob/);
    expect(textOf(held)).toMatch(/LAL_MAX_PEER_EXCHANGES/);
    expect(await run.schedules()).toMatch(/for bob: "remind bob to call"/);
  });
});
