/**
 * What the simulator writes on a terminal, wrapped at words to its width (sim/chat/wrap-words.ts,
 * docs/behaviour.md 10.2): no row wider than the screen, no word broken but one wider than a row
 * (broken after one of its parts where it can be, each row it goes on from marked `↩`), a list
 * item's later rows under its description, a bullet's under its text.
 */
import { describe, expect, it } from 'vitest';
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

  it('breaks a word wider than a row after one of its parts, marking each row it goes on from, and leaves a short line alone', () => {
    expect(wrapEntry('see /a/very/long/path/indeed', undefined, 10).head).toBe(
      'see\n/a/very/↩\nlong/↩\npath/↩\nindeed',
    );
    // JSON without spaces: after a comma where one half fills the row, else after a colon.
    const json = '{"name":"lal","tools":["readFile","writeFile"],"turns":12}';
    expect(wrapEntry(`got ${json}`, undefined, 30).head.split('\n')).toEqual([
      'got',
      '{"name":"lal","tools":↩',
      '["readFile","writeFile"],↩',
      '"turns":12}',
    ]);
    expect(wrapEntry('short', 'and sweet', 80)).toEqual({ head: 'short', body: 'and sweet' });
  });

  it('cuts a word with no part to break after where the row ends, marked, every row within the width', () => {
    const token = 'x'.repeat(25);
    const rows = wrapEntry(token, undefined, 10).head.split('\n');
    expect(rows).toEqual(['xxxxxxxxx↩', 'xxxxxxxxx↩', 'xxxxxxx']);
    expect(rows.join('\n').replaceAll('↩\n', '')).toBe(token);
  });
});
