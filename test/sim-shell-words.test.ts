/**
 * `/attach`'s words read as a shell reads them (sim/chat/shell-words.ts, issue 45): quotes taken
 * off wherever they stand, a backslash keeping the next character, `~` the home folder only at a
 * word's unquoted start, and a quote left open said, not guessed at.
 */
import { describe, expect, it } from 'vitest';
import { readShellWords } from '../sim/chat/shell-words.js';

const env = { HOME: '/home/ada' };
const texts = (line: string) => readShellWords(line, env).map(word => word.text);

describe("/attach's words", () => {
  it('split at spaces outside quotes, the quotes and escapes taken off', () => {
    expect(texts(`fs node "my server/index.js" 'a b' c\\ d e"f g"h`)).toEqual([
      'fs',
      'node',
      'my server/index.js',
      'a b',
      'c d',
      'ef gh',
    ]);
    expect(texts(`"say \\"hi\\"" '\\n'`)).toEqual(['say "hi"', '\\n']);
  });

  it('make a leading unquoted ~ the home folder, alone or before /, and say it was', () => {
    const [home, under, quoted, inside, later] = readShellWords(
      '~ ~/"my dir" "~/x" ~"/y" a/~',
      env,
    );
    expect(home).toMatchObject({ text: '/home/ada', expanded: true });
    expect(under).toMatchObject({ text: '/home/ada/my dir', typed: '~/"my dir"', expanded: true });
    expect(quoted).toMatchObject({ text: '~/x', expanded: false, quotedTilde: true });
    expect(inside).toMatchObject({ text: '~/y', expanded: false });
    expect(later).toMatchObject({ text: 'a/~', expanded: false });
  });

  it('refuses a quote left open', () => {
    expect(() => readShellWords('fs node "my server', env)).toThrow(
      'A quote is not closed: "my server',
    );
  });
});
