/**
 * `npm start`'s one rule for a value a setting does not take (sim/chat/setting-problems.ts, issue
 * 45, docs/configuration.md): each of the agent's problems worded `X must be …, got "…"` becomes
 * one line that stops the start, naming the variable, what it takes, the value and the nearest
 * word when there is one; the agent's other problems (no mistake in a value) are not among them.
 * The module judged alone; sim-bad-settings judges it through the built simulator.
 */
import { describe, expect, it } from 'vitest';
import { malformedSettings } from '../sim/chat/setting-problems.js';

describe('the settings that stop npm start', () => {
  it('none when every value is taken, or nothing is set', () => {
    expect(malformedSettings({})).toEqual([]);
    expect(malformedSettings({ LAL_MAX_MODEL_CALLS: '12', LAL_LOG: 'steps' })).toEqual([]);
  });

  it('one line each, naming the variable, what it takes and the value', () => {
    expect(
      malformedSettings({ LAL_MAX_MODEL_CALLS: 'abc', LAL_STOP_AFTER_ANSWER: 'perhaps' }),
    ).toEqual([
      'LAL_MAX_MODEL_CALLS must be a positive whole number; got "abc"; see docs/configuration.md.',
      'LAL_STOP_AFTER_ANSWER must be 1 or 0 (on/off, yes/no, true/false); got "perhaps"; see docs/configuration.md.',
    ]);
  });

  it('the value as given, empty or with spaces', () => {
    expect(malformedSettings({ LAL_CONTEXT_TOKENS: ' -5 x' })).toEqual([
      'LAL_CONTEXT_TOKENS must be a positive whole number; got " -5 x"; see docs/configuration.md.',
    ]);
  });

  it('a value with a quote in it whole, as an unclosed quote in .env leaves it (docs/troubleshooting.md)', () => {
    expect(malformedSettings({ LAL_MAX_MODEL_CALLS: '"5' })).toEqual([
      'LAL_MAX_MODEL_CALLS must be a positive whole number; got ""5"; see docs/configuration.md.',
    ]);
  });

  it('with the nearest word the setting takes, when one is near', () => {
    expect(malformedSettings({ LAL_LOG: 'step' })).toEqual([
      'LAL_LOG must be one of turns, steps, info, debug, off; got "step"; did you mean steps?; see docs/configuration.md.',
    ]);
    expect(malformedSettings({ LAL_LOG: 'maybe' })).toEqual([
      'LAL_LOG must be one of turns, steps, info, debug, off; got "maybe"; see docs/configuration.md.',
    ]);
  });

  it('a problem that is no mistake in a value (a list left empty, limits out of order) stays the agent’s to say', () => {
    // Each is among the agent's problems (src/config/config.ts), worded otherwise.
    const others = { LAL_TOOLS_ALLOW: ',', LAL_REPEAT_WARN: '9', LAL_REPEAT_REFUSE: '3' };
    expect(malformedSettings(others)).toEqual([]);
    expect(malformedSettings({ ...others, LAL_LOG: 'maybe' })).toEqual([
      'LAL_LOG must be one of turns, steps, info, debug, off; got "maybe"; see docs/configuration.md.',
    ]);
  });
});
