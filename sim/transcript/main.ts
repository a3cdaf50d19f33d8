/**
 * `npm run transcript`: records the README's example session from the current
 * code and prints it; `npm run transcript -- --write` puts it in README.md.
 */
import '@endo/init';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordReadmeSession, repoRoot } from './readme-session.js';
import { transcriptBlock, withBlock } from './readme-block.js';
import { describeError } from '../../providers/describe-error.js';

const readmePath = join(repoRoot, 'README.md');

const main = async () => {
  const block = transcriptBlock(await recordReadmeSession());
  if (process.argv.includes('--write')) {
    writeFileSync(readmePath, withBlock(readFileSync(readmePath, 'utf8'), block));
    process.stdout.write(`wrote the session into ${readmePath}\n`);
  } else process.stdout.write(`${block}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`transcript: ${describeError(error)}\n`);
  process.exitCode = 1;
});
