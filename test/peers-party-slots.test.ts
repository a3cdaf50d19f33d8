/**
 * Each party its own slots (docs/behaviour.md 9.12): whose a schedule or a
 * helper is, whether a party may take one more, and the counts help() shows.
 */
import { describe, expect, test } from 'vitest';
import { countByParty, describeSlots, partyOf, slotRefusal } from '../src/peers/party-slots.js';

const refusal = (held: string[], party: string, max = 2) =>
  slotRefusal({
    held,
    party,
    max,
    what: 'wake-ups are pending',
    setting: 'LAL_MAX_WAKE_UPS',
    free: 'cancel one first',
  });

describe('party slots', () => {
  test("the party of a turn: its sender, or the HOST for the agent's own work", () => {
    expect(partyOf({ sender: 'mallory' }, 'HOST')).toBe('mallory');
    expect(partyOf(undefined, '@host')).toBe('@host');
  });

  test("a peer's full slots never refuse the HOST nor another peer; its own next is refused, named", () => {
    const held = ['mallory', 'mallory', 'HOST'];
    expect(refusal(held, 'HOST')).toBeUndefined();
    expect(refusal(held, 'bob')).toBeUndefined();
    expect(refusal(held, 'mallory')).toBe(
      '2 wake-ups are pending already for mallory, the most each party may have (LAL_MAX_WAKE_UPS); cancel one first',
    );
    expect(refusal(['HOST', 'HOST'], 'HOST')).toMatch(/^2 wake-ups are pending already for HOST/);
    expect(refusal(['HOST'], 'HOST', 1)).toMatch(/^1 wake-ups/);
    expect(refusal([], 'HOST', 1)).toBeUndefined();
  });

  test('counts: the HOST first, then the others by name; help() reads each against its bound', () => {
    expect(countByParty(['zed', 'HOST', 'amy', 'zed'], 'HOST')).toEqual([
      ['HOST', 1],
      ['amy', 1],
      ['zed', 2],
    ]);
    expect(countByParty(['zed', 'amy', 'HOST'], 'HOST')).toEqual([
      ['HOST', 1],
      ['amy', 1],
      ['zed', 1],
    ]);
    expect(countByParty(['bob', 'bob'], 'HOST')).toEqual([['bob', 2]]);
    // The HOST first even where its name sorts last.
    expect(countByParty(['amy', 'zhost', 'bob', 'amy'], 'zhost')).toEqual([
      ['zhost', 1],
      ['amy', 2],
      ['bob', 1],
    ]);
    expect(countByParty(['bob', 'zhost', 'amy'], 'zhost')).toEqual([
      ['zhost', 1],
      ['amy', 1],
      ['bob', 1],
    ]);
    expect(describeSlots(['mallory', 'HOST', 'mallory'], 'HOST', 4)).toBe(
      'HOST 1 of 4, mallory 2 of 4',
    );
    expect(describeSlots([], 'HOST', 4)).toBe('');
  });
});
