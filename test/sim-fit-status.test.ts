/**
 * The terminal's status line keeps to one row (sim/chat/screen.ts): cut to the room there is,
 * its label kept and its newest words after it; a status that fits is left as it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitStatus } from '../sim/chat/screen.js';

describe('the status cut to the room on its row', () => {
  it('never takes more than the room, and a status that fits is unchanged', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 120 }), (text, room) => {
        const fitted = fitStatus(text, room);
        expect(fitted.length).toBeLessThanOrEqual(Math.max(room, 1));
        if (text.length <= room) expect(fitted).toBe(text);
      }),
    );
  });

  it('keeps the label and the newest words of a streamed reply', () => {
    const status = 'fae is writing: I have asked my host to run it; I will tell you the result.';
    expect(fitStatus(status, 40)).toBe('fae is writing: …ll tell you the result.');
    expect(fitStatus(status, 40)).toHaveLength(40);
  });

  it('cuts a status with no label at its end', () => {
    expect(fitStatus('lal is thinking about a great many things at once', 20)).toBe(
      'lal is thinking abo…',
    );
  });
});
