/**
 * The terminal's status line keeps to one row (sim/chat/screen.ts): cut to the room there is,
 * its label kept and its newest words after it; a status that fits is left as it is. The status
 * of a silent model server is a sentence that reads whole at 80 columns, and a shorter form of
 * it on a narrower terminal, never cut: its seconds and "Ctrl-C stops" always whole (issue 45).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { watchQuietServer, waitingStatus } from '../sim/chat/quiet-server.js';
import { fitStatus, fitStatusForms, makeTtyScreen } from '../sim/chat/screen.js';
import { WAIT_MS } from './support/patience.js';
import { fakeTtyOutput } from './support/fake-tty-output.js';

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

/** A terminal `columns` wide and the status row last drawn above the prompt, escapes left out. */
const terminalOf = (columns: number) => {
  const { out, written } = fakeTtyOutput(columns);
  const readline = {
    setPrompt: () => {},
    getPrompt: () => '› ',
    prompt: () => {},
    getCursorPos: () => ({ rows: 0, cols: 0 }),
    on: () => {},
    off: () => {},
  } as unknown as Interface;
  const screen = makeTtyScreen(out);
  screen.attachPrompt(readline);
  // Split before the escapes are left out: the spinner's tick is drawn between a saved cursor and its restoring.
  const statusRow = () =>
    written()
      // eslint-disable-next-line no-control-regex -- rows end at a line break or a saved cursor
      .split(/\n|\x1b7|\x1b8/)
      .map(row => stripVTControlCharacters(row))
      .filter(row => row.trim() !== '')
      .at(-1) ?? '';
  return { screen, statusRow };
};

describe('the status of a model server that sends nothing (issue 45)', () => {
  it('has one count, its own, going on each second: no turn clock beside it (trial 11)', async () => {
    const terminal = terminalOf(80);
    // The turn's status first, as the presenter sets it: its clock runs from here.
    terminal.screen.status('lal is thinking…');
    const quiet = watchQuietServer(terminal.screen, 'lal', {
      quietAfterMs: 1_000,
      checkEveryMs: 50,
    });
    quiet.see({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
    try {
      for (const seconds of [1, 2, 3]) {
        await expect
          .poll(() => terminal.statusRow(), { timeout: WAIT_MS })
          .toContain(`silent for ${seconds} s`);
        // Not `silent for 2 s · Ctrl-C stops 2s`: two counts side by side, read as one.
        expect(terminal.statusRow()).toMatch(
          new RegExp(
            `^. lal is waiting: the model server is silent for ${seconds} s · Ctrl-C stops$`,
          ),
        );
      }
    } finally {
      quiet.stop();
      terminal.screen.close();
    }
  });

  it('reads whole on an 80-column terminal', async () => {
    const terminal = terminalOf(80);
    const quiet = watchQuietServer(terminal.screen, 'lal', { quietAfterMs: 20, checkEveryMs: 5 });
    quiet.see({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
    try {
      await expect.poll(() => terminal.statusRow()).toContain('is waiting');
      const shown = terminal.statusRow();
      expect(shown).not.toContain('…');
      expect(shown).toMatch(/^. lal is waiting: .* Ctrl-C stops$/);
    } finally {
      quiet.stop();
      terminal.screen.close();
    }
  });

  it('still fits after half an hour of silence and hours of turn (a clock of 6 columns)', () => {
    // The spinner and its space, a space, the clock, the prompt, one column spare: 80 - 12.
    for (const seconds of [30, 60, 120, 240, 480, 960, 1920]) {
      const [text, ...shorter] = waitingStatus('lal', seconds);
      expect(fitStatusForms(text, shorter, 80 - 12)).toBe(text);
    }
  });

  it.each([80, 60, 40])(
    'on a %i-column terminal, keeps its seconds and "Ctrl-C stops" whole, whoever waits, however long',
    columns => {
      for (const persona of ['lal', 'fae'])
        for (const seconds of [30, 60, 120, 240, 480, 960, 1920]) {
          const [text, ...shorter] = waitingStatus(persona, seconds);
          const shown = fitStatusForms(text, shorter, columns - 12);
          expect(shown).not.toContain('…');
          expect(shown).toMatch(new RegExp(`\\b${seconds} s · Ctrl-C stops$`));
          expect(shown.length).toBeLessThanOrEqual(columns - 12);
        }
    },
  );

  it.each([60, 40])(
    'as drawn on a %i-column terminal: a shorter form, whole, not a cut one',
    async columns => {
      const terminal = terminalOf(columns);
      const quiet = watchQuietServer(terminal.screen, 'fae', { quietAfterMs: 20, checkEveryMs: 5 });
      quiet.see({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
      try {
        await expect.poll(() => terminal.statusRow()).toContain('Ctrl-C stops');
        const shown = terminal.statusRow();
        expect(shown).not.toContain('…');
        expect(shown).toMatch(/^. .*silent (for )?\d+ s · Ctrl-C stops$/);
        expect(shown.length).toBeLessThan(columns);
      } finally {
        quiet.stop();
        terminal.screen.close();
      }
    },
  );
});
