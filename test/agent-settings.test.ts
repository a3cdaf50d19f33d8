/**
 * The agent's on/off settings through make() (docs/configuration.md): one
 * reading of the words (providers/read-flag.ts), and a word that is neither
 * on nor off is a configuration problem told to the HOST, the default
 * holding, never silently on or off. LAL_PROGRESS and LAL_DIRECT_EVAL were
 * read outside the configuration: `LAL_DIRECT_EVAL=yes please` was silently
 * off, and `LAL_PROGRESS=of` silently on.
 */
import { describe, expect, test } from 'vitest';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

describe('on/off settings', () => {
  test('a word that is neither on nor off is told to the HOST, naming the setting and the default kept', async () => {
    const run = await start({
      env: {
        LAL_PROGRESS: 'of',
        LAL_DIRECT_EVAL: 'yes please',
        LAL_STOP_AFTER_ANSWER: 'nope',
        LAL_PROGRESS_AFTER_MS: 'soon',
      },
      steps: [say('hi')],
    });
    const help = await run.help();
    expect(help).toContain(
      'configuration: LAL_PROGRESS must be 1 or 0 (on/off, yes/no, true/false), got "of"; using on.',
    );
    expect(help).toContain(
      'configuration: LAL_DIRECT_EVAL must be 1 or 0 (on/off, yes/no, true/false), got "yes please"; using off.',
    );
    expect(help).toContain(
      'configuration: LAL_STOP_AFTER_ANSWER must be 1 or 0 (on/off, yes/no, true/false), got "nope"; using on.',
    );
    expect(help).toContain(
      'configuration: LAL_PROGRESS_AFTER_MS must be a whole number of milliseconds (0 or more), got "soon"; using 1000.',
    );
  });

  test('the words are read alike whatever their case and spaces, and set no problem', async () => {
    const run = await start({
      env: { LAL_PROGRESS: ' OFF ', LAL_DIRECT_EVAL: 'Yes', LAL_STOP_AFTER_ANSWER: 'true' },
      steps: [say('hi')],
    });
    expect(await run.help()).not.toContain('configuration:');
  });
});
