/**
 * behaviour 9.13: no turn can make unreachable what the agent's worker was
 * handed. The daemon ends a worker when a formula it was handed is
 * collected (residence.js at f0a46042a and newest; the double does the
 * same, sim/mail-host/caplets.ts), so a turn that made a directory `x` and
 * then wrote another value over `x` stopped the agent (issue 46's finding:
 * the turn never answered, nor the next message). Each way a turn's tools
 * remove or overwrite a name, after the worker was handed what it named, in
 * the HOST's turn, a party's own space and a schedule's watch: the turn
 * answers, the next message too, the worker never ended, and what the turn
 * asked for happened.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, type Step } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type AgentRun,
} from './support/agent-harness.js';
import { guest } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { mailAs, withPeers } from './support/among-others.js';
import { DAEMON_PROFILES } from '../sim/mail-host/profile.js';
import { isHeldName, OLD_HELD_PATH, STATE_DIRECTORY } from '../src/daemon/own-names.js';
import { makeOwnDirectories } from '../setup/provision-agent.js';

const { start } = useAgents();

const names = (args: Record<string, unknown>): Step => callTool('names', args);

/** Each way a turn's tools take the name `x` from what it named, after a step that made or read it. */
const UNNAMINGS: readonly [string, Step][] = [
  [
    'adopts an attachment over it',
    request =>
      callTool('mail', {
        op: 'adopt',
        messageNumber: latestMessageNumber(request),
        edgeName: 'g',
        petName: 'x',
      }),
  ],
  ['stores a value over it', names({ op: 'store', path: 'x', value: 'plain words' })],
  ['copies another name over it', names({ op: 'copy', path: 'gift', to: 'x' })],
  ['moves another name over it', names({ op: 'move', path: 'gift', to: 'x' })],
  ['removes it', names({ op: 'remove', path: 'x' })],
];

/** The worker never ended: one incarnation, and no word of a collected formula. */
const expectWorkerWhole = (run: AgentRun) => {
  expect(run.logs.join('\n')).not.toMatch(/became unreachable|cancelled/);
  expect(run.incarnations).toBe(1);
};

/** What `x` is after the turn, as the guest's directory has it. */
const whatXIs = async (run: AgentRun): Promise<unknown> =>
  (await guest(run).has('x')) ? guest(run).lookup('x') : 'gone';

/** The names in agent-state/ that hold what the worker was handed (src/daemon/held-formulas.ts). */
const heldNames = async (run: AgentRun): Promise<string[]> =>
  ((await guest(run).list(STATE_DIRECTORY)) as string[]).filter(isHeldName);

/** A turn that makes `x` and removes it (the removal would end a worker holding `x` unless it is held), then a ping. */
const makeThenRemove = (done: string, pong: string): Step[] => [
  names({ op: 'makeDirectory', path: 'x' }),
  names({ op: 'remove', path: 'x' }),
  replyStep(done),
  replyStep(pong),
];

/** That turn and the ping are answered, and the agent holds what it was handed, where no tool reaches. */
const expectHoldsWork = async (run: AgentRun, done: string, pong: string) => {
  await run.send('make x, then remove it');
  await run.reply(done);
  await run.send('ping');
  await run.reply(pong);
  expect(await guest(run).has('x')).toBe(false);
  expect((await heldNames(run)).length).toBeGreaterThan(0);
  expect(run.logs.join('\n')).not.toMatch(/became unreachable|could not hold/);
};

describe.each(DAEMON_PROFILES)(
  'what the worker was handed stays reachable (%s daemon)',
  profile => {
    const startWithGift = (steps: Step[]) =>
      start({
        profile,
        steps,
        prepare: async (host, name) => {
          await E(host.host).storeValue('a gift', 'gift');
          await E(host.guest(name).powers).storeValue('a gift', 'gift');
          await E(host.guest(name).powers).makeDirectory('box');
        },
      });

    test.each(UNNAMINGS)(
      "a HOST's turn makes directory x, then %s: it answers, and so does the next message",
      async (way, unname) => {
        const run = await startWithGift([
          names({ op: 'makeDirectory', path: 'x' }),
          unname,
          replyStep('done'),
          replyStep('pong'),
        ]);
        await run.send('make x, then take its name', { edgeNames: ['g'], petNames: ['gift'] });
        await run.reply('done');
        await run.send('ping');
        await run.reply('pong');
        expectWorkerWhole(run);
        expect(await whatXIs(run)).toBe(
          way === 'removes it' ? 'gone' : way.startsWith('stores') ? 'plain words' : 'a gift',
        );
        // The directory is held where no tool reaches, one name for it.
        expect((await heldNames(run)).length).toBeGreaterThan(0);
      },
    );

    test("a HOST's turn looks up a directory it did not make, then removes it: the next message is answered", async () => {
      const run = await startWithGift([
        names({ op: 'lookup', path: 'box' }),
        names({ op: 'inspectCapability', path: 'box' }),
        names({ op: 'remove', path: 'box' }),
        replyStep('done'),
        replyStep('pong'),
      ]);
      await run.send('look in box, then remove it');
      await run.reply('done');
      await run.send('ping');
      await run.reply('pong');
      expectWorkerWhole(run);
      expect(await guest(run).has('box')).toBe(false);
    });

    test("a party's turn makes a directory in its space and stores over it; the HOST's turn then removes every party's space", async () => {
      const malloryHears = (text: string) =>
        waitForMessage(
          run.host,
          message => message.type === 'package' && textOf(message) === text,
          {
            who: 'mallory',
          },
        );
      const run = await start({
        profile,
        prepare: withPeers(['mallory']),
        steps: [
          names({ op: 'makeDirectory', path: 'x' }),
          names({ op: 'store', path: 'x', value: 'plain words' }),
          replyStep('done, mallory'),
          names({ op: 'remove', path: 'agent-parties' }),
          replyStep('spaces gone'),
          replyStep('pong, mallory'),
        ],
      });
      await mailAs(run, 'mallory', 'make x, then store over it');
      await malloryHears('done, mallory');
      // Her space is named as the agent knows her (unnamed here: agent-parties/unnamed-…).
      const [space] = (await guest(run).list('agent-parties')) as string[];
      expect(await guest(run).lookup(['agent-parties', space!, 'x'])).toBe('plain words');
      await run.send('remove agent-parties');
      await run.reply('spaces gone');
      expect(await guest(run).has('agent-parties')).toBe(false);
      await mailAs(run, 'mallory', 'ping');
      await malloryHears('pong, mallory');
      expectWorkerWhole(run);
    });

    test('a schedule watching a directory: a later turn removes the directory, and the agent serves on', async () => {
      const run = await startWithGift([
        names({ op: 'makeDirectory', path: 'drop' }),
        callTool('schedule', { note: 'look at what was dropped', every: 'change in drop' }),
        replyStep('watching'),
        names({ op: 'remove', path: 'drop' }),
        replyStep('removed'),
        replyStep('pong'),
      ]);
      await run.send('make drop/ and watch it');
      await run.reply('watching');
      await run.send('remove drop');
      await run.reply('removed');
      await run.send('ping');
      await run.reply('pong');
      expectWorkerWhole(run);
      expect(await guest(run).has('drop')).toBe(false);
    });

    // f0a46042a collects a directory the HOST makes at a path through the guest before it names it
    // (its walk calls the guest's lookup, and every guest call ends with a collection): setup's
    // agent-state/held/ was left naming a formula that was gone, so no hold ever worked.
    test('a guest whose own directories setup made: holds work from the first turn, and after a daemon restart', async () => {
      const run = await start({
        profile,
        prepare: (host, name) => makeOwnDirectories(host.host, `profile-for-${name}`),
        steps: makeThenRemove('done', 'pong'),
      });
      await expectHoldsWork(run, 'done', 'pong');
      expectWorkerWhole(run);
      await run.restart(makeThenRemove('done again', 'pong again'));
      await expectHoldsWork(run, 'done again', 'pong again');
    });

    // An earlier release held in agent-state/held/, which f0a46042a left naming a collected formula
    // (setup made it by that walk); the newest daemon kept it. Either way it goes at start.
    test("an earlier release's agent-state/held/ (at f0a46042a naming a formula the daemon collected) is let go at start: holds work", async () => {
      const run = await start({
        profile,
        prepare: async (host, name) => {
          await E(host.host).makeDirectory([`profile-for-${name}`, STATE_DIRECTORY]);
          await E(host.host).makeDirectory([`profile-for-${name}`, ...OLD_HELD_PATH]);
          const listed = E(host.guest(name).powers).list(...OLD_HELD_PATH);
          if (profile === 'newest') await expect(listed).resolves.toEqual([]);
          else await expect(listed).rejects.toThrow(/No reference exists/);
        },
        steps: makeThenRemove('done', 'pong'),
      });
      await expectHoldsWork(run, 'done', 'pong');
      expect(run.logs).toContain(
        'let go of agent-state/held/, where an earlier release held names',
      );
      expect(await guest(run).has(...OLD_HELD_PATH)).toBe(false);
      expectWorkerWhole(run);
      await run.restart(makeThenRemove('done again', 'pong again'));
      await expectHoldsWork(run, 'done again', 'pong again');
    });

    test('the names go with the worker: kept when the agent is made again in the same worker, let go after a daemon restart', async () => {
      const run = await startWithGift([
        names({ op: 'makeDirectory', path: 'x' }),
        names({ op: 'remove', path: 'x' }),
        replyStep('done'),
      ]);
      await run.send('make x, then remove it');
      await run.reply('done');
      const heldNow = () => heldNames(run);
      const before = await heldNow();
      expect(before.length).toBeGreaterThan(1);

      // The same worker still holds them: nothing is let go.
      await run.restartAgent([replyStep('pong')]);
      await run.send('ping');
      await run.reply('pong');
      expect(await heldNow()).toEqual(before);
      expect(run.logs.join('\n')).not.toMatch(/let go of/);

      // A new worker holds none of them: those it does not hold again go at start.
      await run.restart([replyStep('pong again')]);
      await run.send('ping');
      await run.reply('pong again');
      const after = await heldNow();
      expect(after.length).toBeLessThan(before.length);
      expect(after.every(name => before.includes(name))).toBe(true);
      expect(run.logs.join('\n')).toMatch(
        /let go of \d+ name\(s\) in agent-state\/ an earlier worker held/,
      );
    });
  },
);
