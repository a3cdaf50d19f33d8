/**
 * LAL_LOG through make() (docs/configuration.md): a word it does not take
 * (`verbose`, `bogus`, a misspelling) was read as the default in silence; it
 * is a configuration problem told to the HOST like every other bad setting,
 * naming the words LAL_LOG takes, the nearest when one is near, and the
 * default kept.
 */
import { describe, expect, test } from 'vitest';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const helpWith = async (value: string): Promise<string> => {
  const run = await start({ env: { LAL_LOG: value }, steps: [say('hi')] });
  return run.help();
};

describe('LAL_LOG', () => {
  test('a word it does not take is told to the HOST, with the words it takes and the default kept', async () => {
    expect(await helpWith('bogus')).toContain(
      'configuration: LAL_LOG must be one of turns, steps, info, debug, off, got "bogus"; using turns.',
    );
    expect(await helpWith('verbose')).toContain(
      'configuration: LAL_LOG must be one of turns, steps, info, debug, off, got "verbose"; using turns.',
    );
  });

  test('a near miss is named with the word meant', async () => {
    expect(await helpWith('stpes')).toContain(
      'configuration: LAL_LOG must be one of turns, steps, info, debug, off, got "stpes"; did you mean steps? Using turns.',
    );
  });

  test('the words it takes, in any case and with spaces, set no problem', async () => {
    for (const value of [' Steps ', 'off', 'info', 'DEBUG', 'turns', ''])
      expect(await helpWith(value)).not.toContain('LAL_LOG');
  });
});
