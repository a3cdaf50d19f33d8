// The documentation's links to its own files lead somewhere (README.md, CONTRIBUTING.md and
// docs/): a page moved or renamed breaks the first hour quietly, as four links to docs/mcp.md
// written from inside docs/ did.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter(name => name.endsWith('.md'))
    .map(name => `docs/${name}`),
];

/** A page's Markdown links that point into the repository (no scheme, no bare anchor). */
const localLinks = (text: string): { target: string; anchor: string | undefined }[] =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(match => {
      const [target = '', anchor] = match[1]!.split('#');
      return { target, anchor };
    })
    .filter(({ target }) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target));
const localTargets = (text: string) => localLinks(text).map(link => link.target);

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
const headingAnchors = (text: string): string[] =>
  [...text.matchAll(/^#+\s+(.+)$/gm)].map(match =>
    match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-'),
  );

describe('links between the documentation pages', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/configuration.md');
    expect(localTargets(readRepoFile('README.md'))).toContain('docs/configuration.md');
  });

  for (const page of pages)
    it(`${page} links only to files that exist`, () => {
      const text = readRepoFile(page);
      const broken = localTargets(text).filter(
        target => !existsSync(join(repoRoot, dirname(page), target)),
      );
      expect(broken).toEqual([]);
    });

  it('links to a heading only where the page has it', () => {
    const anchored = pages.flatMap(page =>
      localLinks(readRepoFile(page))
        .filter(link => link.anchor !== undefined)
        .map(link => ({ ...link, path: join(repoRoot, dirname(page), link.target) })),
    );
    expect(anchored.length).toBeGreaterThan(0);
    const missing = anchored.filter(
      link => !headingAnchors(readFileSync(link.path, 'utf8')).includes(link.anchor!),
    );
    expect(missing).toEqual([]);
  });

  it('shows every picture in docs/images/ on some page (none left behind by an edit)', () => {
    const shown = new Set(
      pages.flatMap(page =>
        localTargets(readRepoFile(page)).map(target => join(dirname(page), target)),
      ),
    );
    const pictures = readdirSync(join(repoRoot, 'docs/images')).map(name => `docs/images/${name}`);
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.filter(picture => !shown.has(picture))).toEqual([]);
  });
});
