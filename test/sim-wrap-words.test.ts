/**
 * What the simulator writes on a terminal, wrapped at words to its width (sim/chat/wrap-words.ts,
 * docs/behaviour.md 10.2): no row wider than the screen but one holding a word wider than a row,
 * which is written whole on a row of its own for the terminal to wrap (so it copies whole), no word
 * broken; a list item's later rows under its description, a bullet's under its text.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeTtyScreen } from '../sim/chat/screen.js';
import { wrapEntry } from '../sim/chat/wrap-words.js';

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
    let written = '';
    const out = {
      columns: 52,
      write: (text: string) => void (written += text),
      on: () => {},
      off: () => {},
    } as unknown as NodeJS.WriteStream;
    const screen = makeTtyScreen(out);
    // The head fills its row (51 columns, one spare): the body's first word goes to the next.
    screen.print(
      'proposal',
      '#10 lal asks to call a tool (approval request #10):',
      'runCommand {"command":"ls"}\nallow it? y (yes) · n (no)',
    );
    screen.close();
    const rows = stripVTControlCharacters(written).split('\n');
    expect(rows[0]).toBe('#10 lal asks to call a tool (approval request #10):');
    expect(rows[1]).toMatch(/^ {2}runCommand/);
    for (const row of rows) expect(row, JSON.stringify(row)).not.toMatch(/ $/);
  });
});
