/**
 * Where a turn's "turn over" line goes on a terminal (README, "The
 * simulator"): right after the turn's last words, before the prompt comes
 * back idle; a line the person typed while the turn was still running is
 * shown after it, not above it.
 */
import { describe, expect, it, vi } from 'vitest';
import { makePresenter } from '../sim/chat/presenter.js';
import { makeTtyScreen } from '../sim/chat/screen.js';
import { recordingScreen } from './support/recording-screen.js';
import { fakeTtyOutput } from './support/fake-tty-output.js';

const endTurn = (presenter: ReturnType<typeof makePresenter>) =>
  presenter.observe({
    kind: 'turn-end',
    title: '#3 from HOST: "ping"',
    stopReason: 'done',
    modelCalls: 2,
    usage: { inputTokens: 10, outputTokens: 2 },
  });

describe('the turn over line on a terminal', () => {
  it('comes before the prompt is idle again', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "ping"' });
    endTurn(presenter);
    await vi.waitFor(() => expect(seen).toContain('status idle'));
    const over = seen.findIndex(line => line.startsWith('print   · turn over'));
    expect(over).toBeGreaterThan(-1);
    expect(over).toBeLessThan(seen.indexOf('status idle'));
  });

  it('comes before a line the person typed while the turn ran', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "ping"' });
    presenter.afterTurn(() => screen.print('you', 'you ›', 'and another thing'));
    endTurn(presenter);
    await vi.waitFor(() => expect(seen).toContain('print you › and another thing'));
    expect(seen.filter(line => line.startsWith('print'))).toEqual([
      'print   · turn over: 2 model calls, 10 in / 2 out tokens',
      'print you › and another thing',
    ]);
  });

  it('a line typed while nothing runs is shown at once', () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.afterTurn(() => screen.print('you', 'you ›', 'hello'));
    expect(seen).toEqual(['print you › hello']);
  });
});

/**
 * A terminal of 20 columns and 10 rows (sim/chat/screen.ts's) with the status row drawn: what it is
 * written from then on (`<prompt>` where the prompt is drawn), and `enter` to enter a line.
 */
const terminal = () => {
  const { out, writes: written } = fakeTtyOutput(20, 10);
  let entered: (line: string) => void = () => {};
  const screen = makeTtyScreen(out);
  screen.attachPrompt({
    getPrompt: () => '› ',
    setPrompt: () => {},
    prompt: () => void written.push('<prompt>'),
    getCursorPos: () => ({ rows: 0, cols: 0 }),
    on: (_event: string, listener: (line: string) => void) => void (entered = listener),
    off: () => {},
  } as never);
  screen.status('lal is thinking…');
  written.length = 0;
  return { screen, written, enter: (line: string) => entered(line) };
};

describe("the terminal's echo of a line typed during a turn", () => {
  it('is taken back, every row it wrapped onto, and the status row above it, and the prompt drawn again', () => {
    const { screen, written } = terminal();
    // 2 prompt characters and 38 typed: two rows of 20 columns, and the status row above them.
    screen.takeBackEcho('x'.repeat(38));
    expect(written.join('')).toContain('\x1b[3A');
    expect(written.filter(text => text === '<prompt>')).toHaveLength(1);
    screen.close();
  });
});

describe('a line entered under the status row (sim/chat/screen.ts)', () => {
  it('keeps its echo, the status row moved back under it, just above the prompt', () => {
    const { screen, written, enter } = terminal();
    enter('hello');
    const drawn = written.join('');
    /* eslint-disable no-control-regex -- a terminal's escapes are what is looked for */
    // Up past the echo's row and the status row, the echo again, then the status and the prompt.
    expect(drawn).toMatch(/^\x1b\[2A.*› hello\n\x1b\[2m. lal is thinking…\x1b\[0m\n<prompt>$/);
    /* eslint-enable no-control-regex */
    screen.close();
  });

  it('taller than the screen: no move up past its top, the prompt drawn under it', () => {
    const { screen, written, enter } = terminal();
    enter('x'.repeat(300));
    const drawn = written.join('');
    /* eslint-disable no-control-regex -- a terminal's escapes are what is looked for */
    expect(drawn).not.toMatch(/\x1b\[\d+A/);
    expect(drawn).not.toContain('xxx');
    expect(drawn).toMatch(/lal is thinking…\x1b\[0m\n<prompt>$/);
    /* eslint-enable no-control-regex */
    screen.close();
  });
});

describe('a turn stopped while its reply streamed', () => {
  const stopped = {
    kind: 'turn-end',
    title: '#3 from HOST: "a story"',
    stopReason: 'cancelled',
    modelCalls: 1,
    usage: { inputTokens: 1200, outputTokens: 4 },
    usageEstimated: true,
  } as const;

  it('keeps what had streamed on the screen, cut short, then its summary with the estimated tokens', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "a story"' });
    presenter.observe({ kind: 'model-call', call: 1, estimatedTokens: 1200, chars: 3600 });
    presenter.observe({ kind: 'model-text', call: 1, text: 'Once upon' });
    presenter.observe({ kind: 'model-text', call: 1, text: 'Once upon a time ' });
    presenter.observe(stopped);
    await vi.waitFor(() => expect(seen).toContain('status idle'));
    expect(seen.filter(line => line.startsWith('print'))).toEqual([
      'print lal (cut short, not sent) › Once upon a time …',
      'print   · turn over (cancelled): 1 model call, about 1,200 in / 4 out tokens',
    ]);
  });

  it('shows no words when nothing streamed, nor a reply already whole (the agent sends that one)', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "a story"' });
    presenter.observe({ kind: 'model-text', call: 1, text: 'Listing them' });
    presenter.observe({ kind: 'model-reply', call: 1, usage: undefined, toolCalls: 1 });
    presenter.observe({ kind: 'model-call', call: 2, estimatedTokens: 1300, chars: 3900 });
    presenter.observe({ kind: 'model-text', call: 2, text: '   ' });
    presenter.observe(stopped);
    await vi.waitFor(() => expect(seen).toContain('status idle'));
    expect(seen.filter(line => line.startsWith('print'))).toEqual([
      'print   · turn over (cancelled): 1 model call, about 1,200 in / 4 out tokens',
    ]);
  });
});

describe('the status line as a turn ends', () => {
  it('says the agent is finishing once its reply is written, and through the turn over line, then idle', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "ping"' });
    presenter.observe({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 30 });
    presenter.observe({ kind: 'model-text', call: 1, text: 'pong' });
    presenter.observe({ kind: 'model-reply', call: 1, usage: undefined, toolCalls: 0 });
    expect(seen.at(-1)).toBe('status lal is finishing…');
    endTurn(presenter);
    expect(seen.at(-1)).toBe('status lal is finishing…');
    await vi.waitFor(() => expect(seen).toContain('status idle'));
    const statuses = seen.filter(line => line.startsWith('status'));
    expect(statuses.slice(statuses.indexOf('status lal is finishing…'))).toEqual([
      'status lal is finishing…',
      'status lal is finishing…',
      'status idle',
    ]);
  });

  it("after a reply sent with a tool, the turn's end says finishing, not thinking", () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "ping"' });
    presenter.observe({ kind: 'model-reply', call: 1, usage: undefined, toolCalls: 1 });
    expect(seen.at(-1)).toBe('status lal is using tools…');
    presenter.observe({ kind: 'tool-call', id: 'c1', name: 'reply', summary: '{}' });
    presenter.observe({ kind: 'tool-result', id: 'c1', name: 'reply', ok: true, preview: '' });
    endTurn(presenter);
    expect(seen.at(-1)).toBe('status lal is finishing…');
  });

  it("a helper's turn ending while the agent's runs leaves the agent's status alone", () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "ping"' });
    presenter.observe({ kind: 'turn-start', title: 'helper h1: "sum"' });
    presenter.observe({ kind: 'tool-call', id: 'c1', name: 'names', summary: '{}' });
    presenter.observe({
      kind: 'turn-end',
      title: 'helper h1: "sum"',
      stopReason: 'done',
      modelCalls: 1,
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    expect(seen.at(-1)).toBe('status lal is running names…');
  });
});

describe('the status line after a call that outlived its turn', () => {
  /** A turn that asked for runCommand, approved, and ended while the call runs (behaviour 6.7). */
  const callOutlivesTurn = async (seen: string[], presenter: ReturnType<typeof makePresenter>) => {
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "run it"' });
    presenter.observe({
      kind: 'tool-call',
      id: 'c1',
      name: 'runCommand',
      summary: '{"command":"sleep 20"}',
    });
    endTurn(presenter);
    await vi.waitFor(() => expect(seen.at(-2)).toMatch(/^print {3}· turn over/));
    expect(seen.at(-1)).toMatch(/^status lal is running /);
  };

  it('is idle once the call is answered (stopped with Ctrl-C or done), not "thinking"', async () => {
    for (const ok of [false, true]) {
      const { seen, screen } = recordingScreen();
      const presenter = makePresenter(screen, 'lal');
      await callOutlivesTurn(seen, presenter);
      presenter.observe({
        kind: 'tool-result',
        id: 'c1',
        name: 'runCommand',
        ok,
        preview: 'cancelled',
      });
      expect(seen.at(-1)).toBe('status idle');
      expect(presenter.busy()).toBe(false);
    }
  });

  it('names the next call still out when one of two is answered', async () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'tool-call', id: 'h1', name: 'names', summary: '{}' });
    await callOutlivesTurn(seen, presenter);
    presenter.observe({ kind: 'tool-result', id: 'c1', name: 'runCommand', ok: true, preview: '' });
    expect(seen.at(-1)).toBe('status lal is running names…');
  });

  it('a result in a turn still says thinking (the model is asked next)', () => {
    const { seen, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "run it"' });
    presenter.observe({ kind: 'tool-call', id: 'c1', name: 'runCommand', summary: '{}' });
    presenter.observe({ kind: 'tool-result', id: 'c1', name: 'runCommand', ok: true, preview: '' });
    expect(seen.at(-1)).toBe('status lal is thinking…');
  });
});
