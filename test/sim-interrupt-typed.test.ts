/**
 * Ctrl-C in the simulator as in a shell (docs/behaviour.md 10.2): a press
 * first discards the half-typed line (at an idle prompt that is all it does,
 * and the next press is a first one again), and it stops the person's own
 * command under way (an /attach mcp) instead of only saying how to leave.
 */
import { describe, expect, it } from 'vitest';
import { LEAVE_WINDOW_MS, makeInterrupt } from '../sim/chat/interrupt.js';
import { makeStoppableCommand } from '../sim/chat/stoppable-command.js';

const setup = (
  options: {
    busy?: boolean;
    line?: string;
    stoppable?: boolean;
    /** What the rest of the leave window waits for (at once, unless given). */
    window?: Promise<void>;
  } = {},
) => {
  let clock = 0;
  let line = options.line ?? '';
  const stopped: (bigint | undefined)[] = [];
  const left: number[] = [];
  const lines: string[] = [];
  let commandsStopped = 0;
  const interrupt = makeInterrupt({
    presenter: {
      busy: () => options.busy ?? false,
      turnInProgress: () => 1n,
      approvedRun: () => undefined,
      afterTurn: show => show(),
    },
    screen: { status: () => {}, print: (_kind, text) => void lines.push(text) },
    session: { stopTurn: async number => void stopped.push(number), goOn: async () => {} },
    waiting: { lines: () => [], drop: async () => {} },
    persona: 'lal',
    leave: async code => void left.push(code),
    now: () => clock,
    wait: async () => options.window,
    typed: { hold: () => {}, named: () => {}, release: () => {} },
    halfTyped: {
      discard: () => {
        const had = line !== '';
        line = '';
        return had;
      },
    },
    command: {
      stop: () => {
        if (options.stoppable !== true) return false;
        commandsStopped += 1;
        return true;
      },
    },
  });
  return {
    interrupt,
    stopped,
    left,
    lines,
    line: () => line,
    type: (text: string) => void (line = text),
    commandsStopped: () => commandsStopped,
    advance: (ms: number) => (clock += ms),
  };
};

describe('Ctrl-C with a half-typed line', () => {
  it('at an idle prompt discards the line and does nothing else; the next press is a first one', async () => {
    const run = setup({ line: 'hello half typed' });
    await run.interrupt();
    expect(run.line()).toBe('');
    expect(run.lines).toEqual([]);
    expect(run.left).toEqual([]);
    // On the empty line: the hint, as for any first press; a second within the window leaves.
    run.advance(100);
    await run.interrupt();
    expect(run.lines).toEqual(['(Ctrl-C again within 2.5 s, or /quit, leaves)']);
    expect(run.left).toEqual([]);
    run.advance(100);
    await run.interrupt();
    expect(run.left).toEqual([0]);
  });

  it('a line typed after the hint is discarded by the next press, which does not leave', async () => {
    const run = setup();
    await run.interrupt();
    run.type('second thoughts');
    run.advance(LEAVE_WINDOW_MS - 500);
    await run.interrupt();
    expect(run.left).toEqual([]);
    expect(run.line()).toBe('');
  });

  it('while a turn runs, only discards the line, saying so; the next press stops the turn', async () => {
    const run = setup({ busy: true, line: 'half typed' });
    await run.interrupt();
    expect(run.line()).toBe('');
    expect(run.stopped).toEqual([]);
    expect(run.left).toEqual([]);
    expect(run.lines).toEqual([
      "(the half-typed line is discarded; Ctrl-C again stops lal's turn)",
    ]);
    // A second later: a first press, which stops the turn and does not leave.
    run.advance(1_000);
    await run.interrupt();
    expect(run.stopped).toEqual([1n]);
    expect(run.left).toEqual([]);
    // Leaving takes a press with nothing half typed.
    run.advance(100);
    await run.interrupt();
    expect(run.left).toEqual([0]);
  });

  it('while a stop is under way, only discards the line; the next press leaves', async () => {
    let windowOver = () => {};
    const run = setup({ busy: true, window: new Promise<void>(resolve => (windowOver = resolve)) });
    // The first press stops the turn and waits out the window: a stop under way.
    const first = run.interrupt();
    expect(run.stopped).toEqual([1n]);
    run.type('half typed');
    run.advance(100);
    await run.interrupt();
    expect(run.line()).toBe('');
    expect(run.left).toEqual([]);
    expect(run.lines.at(-1)).toBe('(the half-typed line is discarded; Ctrl-C again leaves)');
    run.advance(100);
    await run.interrupt();
    expect(run.left).toEqual([0]);
    windowOver();
    await first;
  });
});

describe("Ctrl-C during the person's own command", () => {
  it('stops it instead of saying how to leave; a second press within the window leaves', async () => {
    const run = setup({ stoppable: true });
    await run.interrupt();
    expect(run.commandsStopped()).toBe(1);
    expect(run.lines).toEqual([]);
    run.advance(100);
    await run.interrupt();
    expect(run.left).toEqual([0]);
  });

  it('with no command under way, says how to leave', async () => {
    const run = setup();
    await run.interrupt();
    expect(run.commandsStopped()).toBe(0);
    expect(run.lines).toHaveLength(1);
  });
});

describe('the stoppable command', () => {
  it('aborts the one under way, once; none after it ended', async () => {
    const holder = makeStoppableCommand();
    expect(holder.stop()).toBe(false);
    let seen: AbortSignal | undefined;
    let finish = () => {};
    const running = holder.run(
      signal =>
        new Promise<string>(resolve => {
          seen = signal;
          finish = () => resolve('done');
        }),
    );
    expect(seen?.aborted).toBe(false);
    expect(holder.stop()).toBe(true);
    expect(seen?.aborted).toBe(true);
    expect(holder.stop()).toBe(false);
    finish();
    await expect(running).resolves.toBe('done');
    expect(holder.stop()).toBe(false);
  });
});
