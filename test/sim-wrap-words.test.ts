/**
 * What the simulator writes on a terminal, wrapped at words to its width (sim/chat/wrap-words.ts,
 * docs/behaviour.md 10.2): no row wider than the screen but one holding a word wider than a row,
 * which is written whole on a row of its own for the terminal to wrap (so it copies whole), no word
 * broken; a list item's later rows under its description, a bullet's under its text.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { columnsOf } from '../sim/chat/columns.js';
import { COMMAND_HELP } from '../sim/chat/commands.js';
import { makeTtyScreen, type Screen } from '../sim/chat/screen.js';
import { wrapEntry } from '../sim/chat/wrap-words.js';
import { fakeTtyOutput } from './support/fake-tty-output.js';

describe('an entry wrapped at words', () => {
  it('keeps every row within the width and every word whole', () => {
    const head = 'fae thinks with double-model, the only model of the scripted model double';
    const { head: rows } = wrapEntry(head, undefined, 30);
    for (const row of rows.split('\n')) expect(row.length).toBeLessThanOrEqual(30);
    expect(rows.split(/\s+/)).toEqual(head.split(' '));
  });

  it("goes on under a list item's description, and under a bullet's text", () => {
    const item = "  /status     the agent's state: model, tools, usage and budgets";
    expect(wrapEntry(item, undefined, 40).head.split('\n')).toEqual([
      "  /status     the agent's state: model,",
      '              tools, usage and budgets',
    ]);
    expect(wrapEntry('- special names: HOST, SELF, AGENT', undefined, 24).head).toBe(
      '- special names: HOST,\n  SELF, AGENT',
    );
  });

  it('puts the body after the head, its later lines leaving room for their indent', () => {
    const { head, body } = wrapEntry(
      '#4 fae asks:',
      'runCommand {"command":"ls"}\nallow it? y or n',
      24,
    );
    expect(head).toBe('#4 fae asks:');
    expect(body).toBe('runCommand\n{"command":"ls"}\nallow it? y or n');
  });

  it('writes a word wider than a row whole, on a row of its own, for the terminal to wrap (a path copied whole)', () => {
    // Broken by us (`/a/very/↩`), a copied path does not exist; the terminal's own wrap joins again on copy.
    expect(wrapEntry('see /a/very/long/path/indeed and more', undefined, 10).head).toBe(
      'see\n/a/very/long/path/indeed\nand more',
    );
    const json = '{"name":"lal","tools":["readFile","writeFile"],"turns":12}';
    expect(wrapEntry(`got ${json}`, undefined, 30).head.split('\n')).toEqual(['got', json]);
    // A list item's: on its own row under the description, whole.
    expect(
      wrapEntry(`  /attach      try ${'x'.repeat(40)} now`, undefined, 30).head.split('\n'),
    ).toEqual(['  /attach      try', `${' '.repeat(15)}${'x'.repeat(40)}`, `${' '.repeat(15)}now`]);
    expect(wrapEntry('short', 'and sweet', 80)).toEqual({ head: 'short', body: 'and sweet' });
  });

  it('never cuts a word that fits a row, and marks none', () => {
    const text = 'a word-that-fits-here and then a-very-long-word-that-fits-no-row-at-all end';
    const rows = wrapEntry(text, undefined, 24).head.split('\n');
    expect(rows.join(' ').split(/\s+/)).toEqual(text.split(' '));
    expect(rows.join('\n')).not.toContain('↩');
    for (const row of rows.filter(each => !each.includes('a-very-long')))
      expect(row.length).toBeLessThanOrEqual(24);
  });
});

describe('an entry on the terminal (sim/chat/screen.ts)', () => {
  it('ends no row with a space where the body starts on the next row (trial 13 M5)', () => {
    const { out, written } = fakeTtyOutput(52);
    const screen = makeTtyScreen(out);
    // The head fills its row (51 columns, one spare): the body's first word goes to the next.
    screen.print(
      'proposal',
      '#10 lal asks to call a tool (approval request #10):',
      'runCommand {"command":"ls"}\nallow it? y (yes) · n (no)',
    );
    screen.close();
    const rows = stripVTControlCharacters(written()).split('\n');
    expect(rows[0]).toBe('#10 lal asks to call a tool (approval request #10):');
    expect(rows[1]).toMatch(/^ {2}runCommand/);
    for (const row of rows) expect(row, JSON.stringify(row)).not.toMatch(/ $/);
  });
});

/** Everything `screen.print` writes on a terminal `columns` wide, as rows without colour. */
const printedRows = (columns: number, ...entry: Parameters<Screen['print']>): string[] => {
  const { out, written } = fakeTtyOutput(columns);
  const screen = makeTtyScreen(out);
  screen.print(...entry);
  screen.close();
  return stripVTControlCharacters(written()).split('\n').slice(0, -1);
};

describe('issue 45, trial 14: rows at 60 columns', () => {
  it("a tool's output quoted in the agent's words wraps at its own indent, not under a run of spaces in it", () => {
    const rows = printedRows(
      60,
      'agent',
      '#6 lal ›',
      'Done: {stdout: "total 12\n-rw-r--r-- 1 root root    6 Nov 30 19:35 a.txt", stdoutBytes: 142, stopped: false, timedOut: false}',
    );
    expect(rows.slice(1)).toEqual([
      '  -rw-r--r-- 1 root root    6 Nov 30 19:35 a.txt",',
      '  stdoutBytes: 142, stopped: false, timedOut: false}',
    ]);
  });

  it('a tab takes the columns the terminal gives it (to the next multiple of 8): no row past the width, no word broken', () => {
    const rows = printedRows(60, 'agent', '#7 lal ›', `//a\tb\tc\td\te\tf\tg\th\ti\tj\tk`);
    for (const row of rows) expect(row, JSON.stringify(row)).not.toContain('\t');
    for (const row of rows) expect(columnsOf(row), row).toBeLessThan(60);
    const words = printedRows(
      60,
      'agent',
      '#8 lal ›',
      'The script printed: héllo 🎉 wörld\ttab, which the scripted model repeated',
    );
    for (const row of words) expect(columnsOf(row), row).toBeLessThan(60);
    expect(words.join(' ').split(/\s+/)).toContain('repeated');
  });

  it('a message waiting for its turn: every row after its first indented alike', () => {
    const rows = printedRows(
      60,
      'note',
      'waits › this is a long message typed while the story streams, longer than sixty columns so it wraps',
      '(goes to lal once its turn is over)',
    );
    expect(rows[0]).toMatch(/^waits › /);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows.slice(1)) expect(row, row).toMatch(/^ {2}\S/);
  });

  it("/help's example command stays one line, to be copied whole (80 columns, and piped)", () => {
    const example =
      '    /attach mcp everything node node_modules/@modelcontextprotocol/server-everything/dist/index.js';
    expect(COMMAND_HELP.split('\n')).toContain(example);
    expect(wrapEntry(COMMAND_HELP, undefined, 79).head.split('\n')).toContain(example);
    expect(printedRows(80, 'note', COMMAND_HELP)).toContain(example);
  });
});
