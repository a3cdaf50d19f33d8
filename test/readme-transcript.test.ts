// The README's first session is what its own command prints, run as printed in this folder
// (sim/transcript/): regenerate it with `npm run transcript -- --write` when the simulator or the
// agent changes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordReadmeSession, repoRoot } from '../sim/transcript/readme-session.js';
import { readmeBlock, transcriptBlock } from '../sim/transcript/readme-block.js';
import { readRepoFile } from './support/repo-files.js';
import { skippedBecause } from './support/skipped-because.js';

const readme = readRepoFile('README.md');
const dotEnv = existsSync(join(repoRoot, '.env'))
  ? 'a .env in this folder would be read'
  : undefined;

describe("the README's session", () => {
  it.skipIf(dotEnv !== undefined)(
    `is what the command printed above it prints, run as printed, word for word${skippedBecause(dotEnv)}`,
    async () => {
      const block = readmeBlock(readme);
      const command = /^\$ (.*)$/m.exec(block ?? '')?.[1];
      expect(command, 'the README shows the command of its session').toBeDefined();
      // Nothing to start first: the command alone, with no model of the reader's.
      expect(command).not.toMatch(/LAL_HOST|LAL_MODEL/);
      const recorded = await recordReadmeSession(command);
      expect(recorded).toMatch(/^#8 fae › /m);
      expect(
        block,
        "README.md's session is stale: run `npm run transcript -- --write` and commit README.md",
      ).toBe(transcriptBlock(recorded));
    },
  );

  it('says, before the session, that a scripted model wrote its answers, and how it is made', () => {
    const before = readme.slice(0, readme.indexOf('<!-- transcript:start'));
    const paragraph = before.slice(before.lastIndexOf('## A first session'));
    expect(paragraph).toMatch(/scripted model/);
    expect(paragraph).toContain('npm run transcript -- --write');
    expect(paragraph).toContain('test/readme-transcript.test.ts');
  });
});
