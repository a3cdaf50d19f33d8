/**
 * Where a typed line is shown (sim/chat/typed-lines.ts, docs/behaviour.md 10.2): the terminal's
 * echo while nothing runs; while one runs, a message as waiting at once and `you ›` as its own
 * turn starts (a command's `you ›` at once, above them, so its output follows it), and, from a Ctrl-C
 * until the agent goes on, a message waits: named by the stop, or shown as waiting once the stop
 * has spoken, and shown as sent only as its turn starts once the agent goes on. An answer to an
 * approval (`y`) is no message: shown at once, as a command is.
 */
import { describe, expect, it } from 'vitest';
import { makeAfterCommand } from '../sim/chat/after-command.js';
import { makeTypedLines } from '../sim/chat/typed-lines.js';

const setup = () => {
  const seen: string[] = [];
  let busy = false;
  /** Busy with no turn running: a call approved that outlived its turn, or a turn's summary still to come. */
  let busyBetweenTurns = false;
  let turnOver: (() => void)[] = [];
  const typed = makeTypedLines({
    presenter: {
      busy: () => busy || busyBetweenTurns,
      turnRunning: () => busy,
      afterTurn: print => (busy ? void turnOver.push(print) : print()),
      // No turn is ending in these cases: what goes past its summary goes at once.
      pastTurnOver: print => print(),
    },
    screen: {
      print: (_kind, head, body) => void seen.push(body === undefined ? head : `${head} ${body}`),
      takeBackEcho: line => void seen.push(`echo taken back: ${line}`),
    },
    persona: 'lal',
  });
  return {
    typed,
    seen,
    running: () => (busy = true),
    betweenTurns: () => (busyBetweenTurns = true),
    endTurn: () => {
      busy = false;
      const waiting = turnOver;
      turnOver = [];
      for (const print of waiting) print();
    },
  };
};

describe('a line typed', () => {
  it('while nothing runs keeps its echo; an empty one is nothing', () => {
    const run = setup();
    run.typed.place('hello', 'message');
    run.typed.place('   ', 'message');
    expect(run.seen).toEqual([]);
  });

  it('while a turn runs: a message is shown as waiting at once and as sent after the turn; a command at once, so its output follows its echo', () => {
    const run = setup();
    run.running();
    run.typed.place('and another thing', 'message');
    // A command's echo is taken back here and printed as it runs, before its output (after-command.ts).
    expect(run.typed.place('/status', 'command')).toBe(true);
    expect(run.seen).toEqual([
      'echo taken back: and another thing',
      'waits › and another thing (goes to lal once its turn is over)',
      'echo taken back: /status',
    ]);
    run.endTurn();
    expect(run.seen).toHaveLength(3);
    run.typed.started('and another thing');
    expect(run.seen.slice(3)).toEqual(['you › and another thing']);
  });

  it('several while a turn runs: each is shown as sent as its own turn starts, not before', () => {
    const run = setup();
    run.running();
    run.typed.place('one', 'message');
    run.typed.place('two', 'message');
    run.typed.place('one', 'message');
    run.endTurn();
    run.typed.started(undefined);
    run.typed.started('something else');
    expect(run.seen.filter(line => line.startsWith('you'))).toEqual([]);
    run.typed.started('one');
    expect(run.seen.filter(line => line.startsWith('you'))).toEqual(['you › one']);
    run.typed.started('two');
    run.typed.started('one');
    run.typed.started('one');
    expect(run.seen.filter(line => line.startsWith('you'))).toEqual([
      'you › one',
      'you › two',
      'you › one',
    ]);
  });

  it("an answer to an approval (y) is shown at once as the person's, never as waiting for a turn it does not start", () => {
    const run = setup();
    run.running();
    // Echoed as it runs, as a command is (after-command.ts).
    expect(run.typed.place('y', 'answer')).toBe(true);
    expect(run.seen).toEqual(['echo taken back: y']);
    run.endTurn();
    run.typed.started('y');
    expect(run.seen).toEqual(['echo taken back: y']);
    // From a Ctrl-C until the agent goes on, an answer is no message that waits: as a command's, its echo stays.
    run.typed.hold();
    run.typed.named();
    run.typed.place('n', 'answer');
    expect(run.seen).toHaveLength(1);
  });

  it('a message typed with a leading // is matched as the text it was mailed as', () => {
    const run = setup();
    run.running();
    run.typed.place('//status please', 'message');
    run.typed.started('/status please');
    expect(run.seen.at(-1)).toBe('you › //status please');
  });
});

describe('lines typed in quick succession while nothing runs', () => {
  it("the first keeps its echo; the next waits for its turn, as the first one's has not begun yet, and is shown as sent when its own does", () => {
    const run = setup();
    run.typed.place('ping', 'message');
    run.typed.place('what is two', 'message');
    expect(run.typed.place('/status', 'command')).toBe(true);
    expect(run.seen).toEqual([
      'echo taken back: what is two',
      // No turn runs yet: it waits for the one before it (issue 45, trial 15).
      'waits › what is two (lal takes it up after the message before it)',
      'echo taken back: /status',
    ]);
    run.typed.started('ping');
    expect(run.seen).toHaveLength(3);
    run.typed.started('what is two');
    expect(run.seen.slice(3)).toEqual(['you › what is two']);
    // Both taken up: the next line typed while nothing runs keeps its echo again.
    run.typed.place('and then', 'message');
    expect(run.seen).toHaveLength(4);
  });
});

describe('a message typed while busy with no turn running (issue 45, trial 15)', () => {
  it('an approved call running after its turn, or a turn over and its summary to come: taken up next, no turn named', () => {
    const run = setup();
    run.betweenTurns();
    run.typed.place('ping', 'message');
    expect(run.seen).toEqual(['echo taken back: ping', 'waits › ping (lal takes it up next)']);
    run.typed.started('ping');
    expect(run.seen.at(-1)).toBe('you › ping');
  });
});

describe('a message typed from a Ctrl-C until the agent goes on', () => {
  it('typed in the turn: shown as waiting, not as sent when the turn ends; as sent as its turn starts once the agent goes on', () => {
    const run = setup();
    run.running();
    run.typed.place('what next', 'message');
    run.typed.hold();
    run.endTurn();
    expect(run.seen).toEqual([
      'echo taken back: what next',
      'waits › what next (goes to lal once its turn is over)',
    ]);
    run.typed.named();
    run.typed.release();
    expect(run.seen).toHaveLength(2);
    run.typed.started('what next');
    expect(run.seen.slice(2)).toEqual(['you › what next']);
  });

  it('typed after the stop spoke: shown as waiting at once', () => {
    const run = setup();
    run.typed.hold();
    run.typed.named();
    run.typed.place('what next', 'message');
    expect(run.seen).toEqual([
      'echo taken back: what next',
      'waits › what next (goes to lal once it goes on; Ctrl-C again leaves and drops it)',
    ]);
  });

  it('a command typed meanwhile runs as ever: its echo stays', () => {
    const run = setup();
    run.typed.hold();
    run.typed.named();
    run.typed.place('/status', 'command');
    expect(run.seen).toEqual([]);
  });

  it('once released, lines go as before: a line typed then keeps its echo', () => {
    const run = setup();
    run.typed.hold();
    run.typed.release();
    run.typed.place('hello', 'message');
    expect(run.seen).toEqual([]);
  });

  it('a second hold keeps what the first held', () => {
    const run = setup();
    run.typed.hold();
    run.typed.place('one', 'message');
    run.typed.hold();
    run.typed.release();
    run.typed.started('one');
    expect(run.seen).toEqual(['echo taken back: one', 'you › one']);
  });
});

describe('commands typed in one go while a turn runs (issue 45, trial 15)', () => {
  it('each is echoed as it runs, right before its own output', async () => {
    const seen: string[] = [];
    const screen = {
      print: (_kind: string, head: string, body?: string) =>
        void seen.push(body === undefined ? head : `${head} ${body}`),
      takeBackEcho: () => {},
    };
    const presenter = { busy: () => true, pastTurnOver: (print: () => void) => print() };
    const after = makeAfterCommand({ screen, presenter });
    // ./typed-lines.ts placed each (a turn runs): its echo taken back, for the chain to print.
    const typed = { kind: 'command' as const, place: () => true };
    const status = after.queue('/status', async () => void seen.push('status output'), typed);
    const memory = after.queue('/memory', async () => void seen.push('memory output'), typed);
    expect(seen).toEqual([]);
    await status();
    await memory();
    expect(seen).toEqual(['› /status', 'status output', '› /memory', 'memory output']);
  });
});
