/**
 * One formatter for the quoted name lists of the agent's words to the model
 * (src/encoding/quote-names.ts): an unknown tool's nearest names
 * (src/agent-tools/unknown-tool.ts) and a failed call's hints
 * (src/builtin-tools/explain-failure.ts) once each had a join of their own;
 * explain-failure's sits in a layer above unknown-tool's, which may not
 * import it (docs/architecture.md, "Layers"), so the one form lives in the
 * base layer both import.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quoteNames } from '../src/encoding/quote-names.js';
import { unknownToolText } from '../src/agent-tools/unknown-tool.js';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const sourcesUnder = (folder: string): string[] =>
  readdirSync(join(repoRoot, folder), { withFileTypes: true }).flatMap(entry =>
    entry.isDirectory()
      ? sourcesUnder(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );

// A list of names written out in double quotes by a module of its own: `x.map(n => `"${n}"`).join(…)`.
const OWN_QUOTED_JOIN = /\.map\(\(?(\w+)\)? => `"\$\{\1\}"`\)\s*\.join\(/;

describe('quoted name lists', () => {
  it('are written one way: each name in double quotes, a comma and a space between', () => {
    expect(quoteNames(['math', 'greet'])).toBe('"math", "greet"');
    expect(quoteNames(['one'])).toBe('"one"');
    expect(quoteNames([])).toBe('');
  });

  it("an unknown tool's nearest names read as the hints of a failed call read theirs", () => {
    expect(unknownToolText('maths', ['math', 'greet', 'mail'])).toBe(
      `Unknown tool "maths". The tools you have are: math, greet, mail; the nearest to "maths": ${quoteNames(['math'])}`,
    );
  });

  it('have no second formatter in src/: both wordings import the one', () => {
    const own = sourcesUnder('src').filter(
      file =>
        file !== join('src', 'encoding', 'quote-names.ts') &&
        OWN_QUOTED_JOIN.test(readRepoFile(file)),
    );
    expect(own).toEqual([]);
    for (const user of ['src/agent-tools/unknown-tool.ts', 'src/builtin-tools/explain-failure.ts'])
      expect(readRepoFile(user)).toContain("from '../encoding/quote-names.js'");
  });
});
