/**
 * Ctrl-C in the simulator (behaviour 10.2): one press stops the turn in
 * progress, or at an idle prompt says how to leave; the agent goes on only
 * once the leave window is over, so a second press within it leaves before
 * the agent takes up what waits for it, and drops the lines the person
 * typed meanwhile, saying which.
 */
import { describe, expect, it } from 'vitest';
import { droppedLine, LEAVE_WINDOW_MS, makeInterrupt } from '../sim/chat/interrupt.js';
import type { WaitingLine } from '../sim/chat/waiting-mail.js';

const setup = (busy = true, typed: WaitingLine[] = []) => {
  let clock = 0;
  const stopped: (bigint | undefined)[] = [];
  const left: number[] = [];
  const lines: string[] = [];
  /** Each line's kind, as the screen colours it (a note dim, an error red). */
  const kinds: string[] = [];
  const dropped: bigint[] = [];
  let wentOn = 0;
  let turn = 1n;
  /** What the typed lines were told, in order, among the stops and goings-on. */
  const steps: string[] = [];
  /** The waits asked for (the rest of the window), each ended by the test. */
  const waits: { ms: number; end: () => void }[] = [];
  const interrupt = makeInterrupt({
    presenter: {
      busy: () => busy,
      turnInProgress: () => turn,
      approvedRun: () => undefined,
      afterTurn: print => print(),
    },
    screen: {
      status: () => {},
      print: (kind, text) => {
        kinds.push(kind);
        lines.push(text);
      },
    },
    session: {
      stopTurn: async number => {
        stopped.push(number);
        steps.push('stop');
        turn += 1n;
      },
      goOn: async () => {
        wentOn += 1;
        steps.push('go on');
      },
    },
    typed: {
      hold: () => void steps.push('hold'),
      named: () => void steps.push(`named after: ${lines.at(-1)}`),
      release: () => void steps.push('release'),
    },
    waiting: {
      lines: () => typed.filter(line => !dropped.includes(line.number)),
      drop: async gone => void dropped.push(...gone.map(line => line.number)),
    },
    persona: 'lal',
    leave: async code => void left.push(code),
    now: () => clock,
    wait: ms => new Promise(resolve => waits.push({ ms, end: resolve })),
  });
  /** A press whose stop has run, the window's rest still to wait. */
  const press = async () => {
    const before = waits.length;
    const pressing = interrupt();
    await expect.poll(() => waits.length).toBe(before + 1);
    // Wrapped: an async function returning the promise itself would wait for it.
    return { done: pressing };
  };
  return {
    interrupt,
    press,
    stopped,
    left,
    lines,
    kinds,
    dropped,
    waits,
    wentOn: () => wentOn,
    steps,
    advance: (ms: number) => (clock += ms),
  };
};

/** The parts of an interrupt these cases leave alone: nothing waits, nothing is timed. */
const quietParts = {
  waiting: { lines: () => [], drop: async () => {} },
  typed: { hold: () => {}, named: () => {}, release: () => {} },
  persona: 'lal',
  leave: async () => {},
  now: () => 0,
  wait: async () => {},
};

const typed = [
  { number: 7n, text: 'what about\nlunch?' },
  { number: 8n, text: 'x'.repeat(80) },
];

describe('Ctrl-C with work queued', () => {
  it('holds the agent for the rest of the window, naming what waits, then it goes on', async () => {
    const run = setup(true, typed);
    const first = await run.press();
    expect(run.stopped).toEqual([1n]);
    expect(run.wentOn()).toBe(0);
    expect(run.waits.map(each => each.ms)).toEqual([LEAVE_WINDOW_MS]);
    expect(run.lines.at(-1)).toBe(
      `lal stopped; what it kept is still there. What you typed meanwhile waits 2.5 s, then goes to lal (Ctrl-C again leaves and drops it): "what about lunch?", "${'x'.repeat(59)}…"`,
    );
    run.waits[0]!.end();
    await first.done;
    expect(run.wentOn()).toBe(1);
    expect(run.dropped).toEqual([]);
    expect(run.left).toEqual([]);
  });

  it('holds what is typed from the press, until the agent went on again', async () => {
    const run = setup(true, typed);
    const first = await run.press();
    run.waits[0]!.end();
    await first.done;
    expect(run.steps).toEqual([
      'hold',
      'stop',
      `named after: ${run.lines.at(-1)}`,
      'go on',
      'release',
    ]);
    expect(run.lines.at(-1)).toMatch(/^lal stopped; /);
    expect(run.kinds).toEqual(['note', 'note']);
  });

  it('leaving releases nothing: what was held is dropped, not shown as sent', async () => {
    const run = setup(true, typed);
    const first = await run.press();
    await run.interrupt();
    run.waits[0]!.end();
    await first.done;
    expect(run.steps).not.toContain('release');
  });

  it("speaks once the stopped turn's last lines are shown", async () => {
    const lines: string[] = [];
    const shownOver: (() => void)[] = [];
    const interrupt = makeInterrupt({
      presenter: {
        busy: () => true,
        turnInProgress: () => 1n,
        approvedRun: () => undefined,
        afterTurn: print => void shownOver.push(print),
      },
      screen: { status: () => {}, print: (_kind, text) => void lines.push(text) },
      session: { stopTurn: async () => {}, goOn: async () => {} },
      ...quietParts,
    });
    const pressing = interrupt();
    await expect.poll(() => shownOver.length).toBe(1);
    expect(lines).toEqual(["Stopping lal's turn (Ctrl-C again leaves)…"]);
    shownOver[0]!();
    await pressing;
    expect(lines.at(-1)).toBe('lal stopped; what it kept is still there. Go on.');
  });

  it('says it stops the approved call when that runs after its turn, not a turn (issue 45, trial 15)', async () => {
    const lines: string[] = [];
    const interrupt = makeInterrupt({
      presenter: {
        busy: () => true,
        turnInProgress: () => undefined,
        approvedRun: () => 'runCommand',
        afterTurn: print => print(),
      },
      screen: { status: () => {}, print: (_kind, text) => void lines.push(text) },
      session: { stopTurn: async () => {}, goOn: async () => {} },
      ...quietParts,
    });
    await interrupt();
    expect(lines[0]).toBe('Stopping the approved runCommand call (Ctrl-C again leaves)…');
  });

  it('waits only what is left of the window once the stop is done', async () => {
    const run = setup();
    const pressing = run.interrupt();
    run.advance(1_000);
    await expect.poll(() => run.waits.length).toBe(1);
    expect(run.waits[0]!.ms).toBe(LEAVE_WINDOW_MS - 1_000);
    expect(run.lines.at(-1)).toBe('lal stopped; what it kept is still there. Go on.');
    run.waits[0]!.end();
    await pressing;
    expect(run.wentOn()).toBe(1);
  });

  it('a second press within the window leaves, dropping the lines typed, and the agent never goes on', async () => {
    const run = setup(true, typed);
    const first = await run.press();
    run.advance(LEAVE_WINDOW_MS - 500);
    await run.interrupt();
    expect(run.dropped).toEqual([7n, 8n]);
    expect(run.lines.at(-1)).toMatch(
      /^dropped, as you left before lal took it up: "what about lunch\?", "x+…"$/,
    );
    expect(run.kinds.at(-1)).toBe('note');
    expect(run.left).toEqual([0]);
    run.waits[0]!.end();
    await first.done;
    expect(run.wentOn()).toBe(0);
    expect(run.stopped).toEqual([1n]);
  });

  it('a second press while the stop is still under way leaves too', async () => {
    const run = setup(true, typed);
    const first = { done: run.interrupt() };
    run.advance(LEAVE_WINDOW_MS + 1);
    await run.interrupt();
    expect(run.left).toEqual([0]);
    expect(run.dropped).toEqual([7n, 8n]);
    await first.done;
    // The stop took the whole window: nothing is left to wait, and the agent stays stopped.
    expect(run.waits).toEqual([]);
    expect(run.wentOn()).toBe(0);
    // Nor does the stop speak after the person left.
    expect(run.lines.filter(line => line.startsWith('lal stopped'))).toEqual([]);
    expect(run.steps).not.toContain('release');
  });

  it('a stop that took exactly the window waits no more', async () => {
    const run = setup();
    const pressing = run.interrupt();
    run.advance(LEAVE_WINDOW_MS);
    await pressing;
    expect(run.waits).toEqual([]);
    expect(run.wentOn()).toBe(1);
  });

  it('a press after the agent went on again stops the turn then in progress', async () => {
    const run = setup();
    const first = await run.press();
    run.advance(LEAVE_WINDOW_MS);
    run.waits[0]!.end();
    await first.done;
    const second = await run.press();
    expect(run.stopped).toEqual([1n, 2n]);
    expect(run.left).toEqual([]);
    run.waits[1]!.end();
    await second.done;
    expect(run.wentOn()).toBe(2);
  });

  it('says so when the stop fails, and the agent still goes on', async () => {
    const lines: string[] = [];
    let wentOn = 0;
    const interrupt = makeInterrupt({
      presenter: {
        busy: () => true,
        turnInProgress: () => 1n,
        approvedRun: () => undefined,
        afterTurn: print => print(),
      },
      screen: { status: () => {}, print: (kind, text) => void lines.push(`${kind}: ${text}`) },
      session: {
        stopTurn: () => Promise.reject(Error('no such caplet')),
        goOn: async () => void (wentOn += 1),
      },
      ...quietParts,
    });
    await interrupt();
    expect(lines.at(-1)).toBe('error: could not stop the turn: no such caplet');
    expect(wentOn).toBe(1);
  });
});

describe('Ctrl-C when the stopped turn never says it ended', () => {
  it('speaks once its wait for the turn is over all the same, and the agent goes on', async () => {
    const lines: string[] = [];
    let wentOn = 0;
    const interrupt = makeInterrupt({
      presenter: {
        busy: () => true,
        turnInProgress: () => 1n,
        approvedRun: () => undefined,
        afterTurn: () => {},
      },
      screen: { status: () => {}, print: (_kind, text) => void lines.push(text) },
      session: { stopTurn: async () => {}, goOn: async () => void (wentOn += 1) },
      ...quietParts,
      turnOverWaitMs: 20,
    });
    await interrupt();
    expect(lines.at(-1)).toBe('lal stopped; what it kept is still there. Go on.');
    expect(wentOn).toBe(1);
  });
});

describe('the agent not made again after a stop', () => {
  it('says so, and what waited is no longer held', async () => {
    const lines: string[] = [];
    const steps: string[] = [];
    const interrupt = makeInterrupt({
      presenter: {
        busy: () => true,
        turnInProgress: () => 1n,
        approvedRun: () => undefined,
        afterTurn: print => print(),
      },
      screen: { status: () => {}, print: (kind, text) => void lines.push(`${kind}: ${text}`) },
      session: { stopTurn: async () => {}, goOn: () => Promise.reject(Error('no worker')) },
      ...quietParts,
      typed: { hold: () => {}, named: () => {}, release: () => void steps.push('release') },
    });
    await interrupt();
    expect(lines.at(-1)).toBe('error: could not make lal again: no worker');
    expect(steps).toEqual(['release']);
  });
});

describe('what leaving says of the lines dropped', () => {
  it('quotes each on one line, trimmed, cutting only one longer than 60 characters', () => {
    expect(droppedLine('fae', ['  a\n\tb  ', 'y'.repeat(60), 'z'.repeat(61)])).toBe(
      `dropped, as you left before fae took it up: "a b", "${'y'.repeat(60)}", "${'z'.repeat(59)}…"`,
    );
  });
});

describe('Ctrl-C at an idle prompt', () => {
  it('says in one line how to leave; a second press within the window leaves', async () => {
    const run = setup(false);
    await run.interrupt();
    expect(run.left).toEqual([]);
    expect(run.stopped).toEqual([]);
    expect(run.lines).toEqual(['(Ctrl-C again within 2.5 s, or /quit, leaves)']);
    expect(run.kinds).toEqual(['note']);
    run.advance(LEAVE_WINDOW_MS - 500);
    await run.interrupt();
    expect(run.left).toEqual([0]);
    expect(run.dropped).toEqual([]);
    // Nothing typed, nothing said dropped.
    expect(run.lines).toHaveLength(1);
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
