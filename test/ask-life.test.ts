/**
 * The life of an ask as a pure function (src/asks/ask-life.ts): every
 * state against every event, while the run serves and after it stopped.
 * A yes is acted on once; a disconnection is never a refusal; nothing is
 * acted on once the run has stopped; only pending asks are kept.
 */
import { describe, expect, test } from 'vitest';
import { isPending, nextAsk, type AskEvent, type AskState } from '../src/asks/ask-life.js';

const STATES: AskState[] = ['made', 'sent', 'settled', 'cancelled', 'told', 'dismissed', 'lost'];
const EVENTS: AskEvent[] = [
  'send',
  'yes',
  'no',
  'disconnect',
  'copy-gone',
  'cancel',
  'tell',
  'dismiss',
];

// What each state does with each event while serving; anything not listed is ignored.
const MOVES: Record<string, [AskState, string]> = {
  'made send': ['sent', 'none'],
  'made yes': ['settled', 'act'],
  'sent yes': ['settled', 'act'],
  'made no': ['settled', 'refuse'],
  'sent no': ['settled', 'refuse'],
  'made disconnect': ['made', 'wait'],
  'sent disconnect': ['sent', 'wait'],
  'made copy-gone': ['lost', 'tell-lost'],
  'sent copy-gone': ['lost', 'tell-lost'],
  'settled tell': ['told', 'none'],
  // A call the yes started, stopped by the agent's cancellation: stored so, then told (issue 45).
  'settled cancel': ['cancelled', 'none'],
  'cancelled tell': ['told', 'none'],
  'lost tell': ['told', 'none'],
  'told dismiss': ['dismissed', 'none'],
};

describe('nextAsk', () => {
  const cases = STATES.flatMap(state => EVENTS.map(event => [state, event] as const));
  test.each(cases)('%s + %s while serving', (state, event) => {
    const [next, effect] = MOVES[`${state} ${event}`] ?? [state, 'ignore'];
    expect(nextAsk(state, event, true)).toEqual({ state: next, effect });
  });

  test.each(cases)('%s + %s after the run stopped changes nothing', (state, event) => {
    expect(nextAsk(state, event, false)).toEqual({ state, effect: 'ignore' });
  });

  test('a yes is acted on once: a second answer, either way, is ignored', () => {
    const settled = nextAsk('sent', 'yes', true);
    expect(settled.effect).toBe('act');
    expect(nextAsk(settled.state, 'yes', true).effect).toBe('ignore');
    expect(nextAsk(settled.state, 'no', true).effect).toBe('ignore');
  });

  test('only made, sent, settled and cancelled asks are pending (kept in the store)', () => {
    expect(STATES.filter(isPending)).toEqual(['made', 'sent', 'settled', 'cancelled']);
  });
});
