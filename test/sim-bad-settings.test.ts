/**
 * One rule for a value a setting does not take (issue 45): `npm start` stops
 * at start, in one line naming the variable, the value and what it takes, for
 * every setting, the agent's (read by src/config/config.ts, which in a daemon
 * tells the HOST and keeps the default: docs/configuration.md) as the model's
 * (providers/config.ts). Before, LAL_MAX_MODEL_CALLS=abc and LAL_LOG=maybe
 * showed only in the greeting ("using 24") while LAL_CONTEXT_TOKENS=-5 stopped.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const refusal = async (env: Record<string, string>, cwd?: string) => {
  const run = await runSim(
    ['--demo'],
    env,
    input => {
      input.write('ping\n');
      input.end();
    },
    cwd,
  );
  expect(run.stdout).toBe('');
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0];
};

describe('a setting npm start cannot read stops it at start, whichever setting', () => {
  it.each([
    [
      { LAL_MAX_MODEL_CALLS: 'abc' },
      'LAL_MAX_MODEL_CALLS must be a positive whole number; got "abc" in the environment; see docs/configuration.md.',
    ],
    [
      { LAL_LOG: 'maybe' },
      'LAL_LOG must be one of turns, steps, info, debug, off; got "maybe" in the environment; see docs/configuration.md.',
    ],
    [
      { LAL_STOP_AFTER_ANSWER: 'perhaps' },
      'LAL_STOP_AFTER_ANSWER must be 1 or 0 (on/off, yes/no, true/false); got "perhaps" in the environment; see docs/configuration.md.',
    ],
    [
      { LAL_CONTEXT_TOKENS: '-5' },
      'LAL_CONTEXT_TOKENS must be a positive whole number; got "-5" in the environment; see docs/configuration.md.',
    ],
    // Less than the request's fixed part (its system prompt and tools, ~1,300 tokens) is no budget.
    [
      { LAL_CONTEXT_TOKENS: '100' },
      'LAL_CONTEXT_TOKENS must be a whole number of at least 2000; got "100" in the environment; see docs/configuration.md.',
    ],
    // The persona is a setting too: the same line and exit code as the others.
    [
      { LAL_PERSONA: 'fea' },
      'LAL_PERSONA must be lal or fae; got "fea" in the environment; see docs/configuration.md.',
    ],
  ])('%o', async (env, line) => {
    expect(await refusal(env)).toBe(line);
  });
});

// The fifteenth newcomer trial: a bad value in .env was named without the file it came from.
describe('the refusal says where the value came from', () => {
  it('.env at its path, or the environment, which wins over it', async () => {
    const cwd = makeTempFolder('cwd');
    const file = join(cwd, '.env');
    writeFileSync(file, 'LAL_MAX_TOKENS=abc\n');
    expect(await refusal({}, cwd)).toBe(
      `LAL_MAX_TOKENS must be a whole number of at least 1; got "abc" in .env at ${file}; see docs/configuration.md.`,
    );
    writeFileSync(file, 'LAL_LOG=maybe\n');
    expect(await refusal({ LAL_LOG: 'never' }, cwd)).toBe(
      'LAL_LOG must be one of turns, steps, info, debug, off; got "never" in the environment; see docs/configuration.md.',
    );
    expect(await refusal({}, cwd)).toBe(
      `LAL_LOG must be one of turns, steps, info, debug, off; got "maybe" in .env at ${file}; see docs/configuration.md.`,
    );
  });
});
