// The setup scripts' on/off settings take the same words as the agent's (providers/read-flag.ts),
// and refuse another word by name: LAL_RESTART=maybe used to replace a running agent, and
// LAL_PIN=nah used to pin it.
import { describe, expect, it } from 'vitest';
import { readForm, readPin, readRestart } from '../setup/read-setup-env.js';

describe('setup flags', () => {
  it('read the on/off words whatever their case, each with its default when unset', () => {
    expect([readRestart({}), readPin({}), readForm({})]).toEqual([false, true, true]);
    expect(readRestart({ LAL_RESTART: ' Yes ' })).toBe(true);
    expect(readPin({ LAL_PIN: 'OFF' })).toBe(false);
    expect(readForm({ LAL_FORM: '0' })).toBe(false);
  });

  it('refuse another word, naming the setting', () => {
    expect(() => readRestart({ LAL_RESTART: 'maybe' })).toThrow(
      /^LAL_RESTART must be 1 or 0, got "maybe"$/,
    );
    expect(() => readPin({ LAL_PIN: 'nah' })).toThrow(/^LAL_PIN must be 1 or 0, got "nah"$/);
    expect(() => readForm({ LAL_FORM: '2' })).toThrow(/^LAL_FORM must be 1 or 0, got "2"$/);
  });
});
