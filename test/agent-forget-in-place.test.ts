/**
 * forget() clears the searchable history in place (issue 35): the daemon
 * collects a directory no pet name reaches and ends every worker that was
 * handed it (endo's residence.js, played by the double), so making
 * `agent-history` anew over its name would take the agent down with it.
 * Through make() under lockdown, on both daemon profiles.
 */
import { HISTORY_DIRECTORY } from '../src/daemon/own-names.js';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { describeError } from '../providers/describe-error.js';

const { start } = useAgents();

describe('forget() leaves the agent and its worker standing', () => {
  for (const profile of ['f0a46042a', 'newest'] as const) {
    test(`on ${profile}: the agent answers after forget(), and the conversation stays cleared after a restart`, async () => {
      const run = await start({
        profile,
        steps: [replyStep('noted'), replyStep('noted again'), replyStep('noted once more')],
      });
      // Long enough to fill the history's first chunk, which is then written in agent-history/.
      const long = ` ${'and so on '.repeat(300)}`;
      await run.send(`the meeting is at 14:30${long}`);
      await run.reply('noted');
      await run.send(`and lunch at noon${long}`);
      await run.reply('noted again');
      await run.send(`and tea at four${long}`);
      await run.reply('noted once more');
      const guest = run.host.guest(run.name).powers;
      await expect
        .poll(
          async () => (await E(guest).has(HISTORY_DIRECTORY)) && E(guest).list(HISTORY_DIRECTORY),
        )
        .toEqual([expect.stringMatching(/^c1-\d+$/)]);
      const historyId = await E(guest).identify(HISTORY_DIRECTORY);

      expect(await run.forget()).toMatch(/^Forgot 3 turns of conversation/);
      // Cleared in place: the same directory, now empty.
      expect(await E(guest).identify(HISTORY_DIRECTORY)).toBe(historyId);
      expect(await E(guest).list(HISTORY_DIRECTORY)).toEqual([]);

      run.provider.push(replyStep('still here'));
      await run.send('are you there?');
      await run.reply('still here');
      const asked = run.provider.requests.at(-1)!;
      expect(JSON.stringify(asked.messages)).not.toContain('14:30');

      await run.restart([replyStep('after the restart')]);
      await run.send('and now?');
      await run.reply('after the restart');
      const afterRestart = JSON.stringify(run.provider.requests.at(-1)!.messages);
      expect(afterRestart).not.toContain('14:30');
      expect(afterRestart).not.toContain('lunch at noon');
      expect(run.logs.join('\n')).not.toMatch(/could not clear|\[object Object\]/);
    });
  }
});

describe('describeError', () => {
  test("reads the message of an error-like object from another realm (was logged as '[object Object]')", () => {
    expect(
      describeError(harden({ name: 'Error', message: 'Formula "directory" was collected' })),
    ).toBe('Formula "directory" was collected');
    expect(describeError(Error('plain'))).toBe('plain');
    expect(describeError('text')).toBe('text');
    expect(describeError(undefined)).toBe('undefined');
  });
});
