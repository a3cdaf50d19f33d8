/**
 * Ctrl-C in the simulator (behaviour 10.2): one press stops the turn in
 * progress, or at an idle prompt says how to leave; a second within a couple
 * of seconds leaves, even when the agent has meanwhile taken up the next
 * queued message.
 */
import { describe, expect, it } from 'vitest';
import { LEAVE_WINDOW_MS, makeInterrupt } from '../sim/chat/interrupt.js';

const setup = (busy = true) => {
  let clock = 0;
  const stopped: (bigint | undefined)[] = [];
  const left: number[] = [];
  const lines: string[] = [];
  let turn = 1n;
  const interrupt = makeInterrupt({
    // Always busy: work is queued, so the next turn starts as soon as one stops.
    presenter: { busy: () => busy, turnInProgress: () => turn },
    screen: { status: () => {}, print: (_kind, text) => void lines.push(text) },
    session: {
      stopTurn: async number => {
        stopped.push(number);
        turn += 1n;
      },
    },
    persona: 'lal',
    leave: async code => void left.push(code),
    now: () => clock,
  });
  return { interrupt, stopped, left, lines, advance: (ms: number) => (clock += ms) };
};

describe('Ctrl-C with work queued', () => {
  it('a second press within the window leaves, though the next queued turn has begun', async () => {
    const run = setup();
    await run.interrupt();
    expect(run.stopped).toEqual([1n]);
    expect(run.lines).toContain('lal stopped; what it kept is still there. Go on.');
    run.advance(LEAVE_WINDOW_MS - 500);
    await run.interrupt();
    expect(run.stopped).toEqual([1n]);
    expect(run.left).toEqual([0]);
  });

  it('a press long after the last stops the turn then in progress', async () => {
    const run = setup();
    await run.interrupt();
    run.advance(LEAVE_WINDOW_MS + 1);
    await run.interrupt();
    expect(run.stopped).toEqual([1n, 2n]);
    expect(run.left).toEqual([]);
  });
});

describe('Ctrl-C at an idle prompt', () => {
  it('says in one line how to leave; a second press within the window leaves', async () => {
    const run = setup(false);
    await run.interrupt();
    expect(run.left).toEqual([]);
    expect(run.stopped).toEqual([]);
    expect(run.lines).toEqual(['(Ctrl-C again within 2.5 s, or /quit, leaves)']);
    run.advance(LEAVE_WINDOW_MS - 500);
    await run.interrupt();
    expect(run.left).toEqual([0]);
  });

  it('a press long after the first says it again rather than leaving', async () => {
    const run = setup(false);
    await run.interrupt();
    run.advance(LEAVE_WINDOW_MS + 1);
    await run.interrupt();
    expect(run.left).toEqual([]);
    expect(run.lines).toHaveLength(2);
  });
});
