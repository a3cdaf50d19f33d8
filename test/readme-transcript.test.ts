// The README's example session is what the current code prints (sim/transcript/):
// regenerate it with `npm run transcript -- --write` when the simulator or the agent changes.
import { describe, expect, it } from 'vitest';
import { recordReadmeSession } from '../sim/transcript/readme-session.js';
import { readmeBlock, transcriptBlock } from '../sim/transcript/readme-block.js';
import { readRepoFile } from './support/repo-files.js';

const readme = readRepoFile('README.md');

describe("the README's session", () => {
  it('is what the simulator prints today, word for word', async () => {
    const recorded = await recordReadmeSession();
    expect(recorded).toContain('#8 fae › Adopted it: 6 × 7 = 42');
    expect(
      readmeBlock(readme),
      "README.md's session is stale: run `npm run transcript -- --write` and commit README.md",
    ).toBe(transcriptBlock(recorded));
  });

  it('says, before the session, that a scripted model wrote its answers, and how it is made', () => {
    const before = readme.slice(0, readme.indexOf('<!-- transcript:start'));
    const paragraph = before.slice(before.lastIndexOf('## A first session'));
    expect(paragraph).toMatch(/scripted model/);
    expect(paragraph).toContain('npm run transcript -- --write');
    expect(paragraph).toContain('test/readme-transcript.test.ts');
  });
});
