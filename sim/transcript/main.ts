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

const USAGE =
  'usage: npm run transcript [-- --write]   (prints the session; --write puts it in README.md)';

const main = async () => {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const unknown = args.filter(arg => arg !== '--write');
  if (unknown.length > 0) {
    process.stderr.write(`transcript: unknown argument ${JSON.stringify(unknown[0])}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const block = transcriptBlock(await recordReadmeSession());
  if (args.includes('--write')) {
    writeFileSync(readmePath, withBlock(readFileSync(readmePath, 'utf8'), block));
    process.stdout.write(`wrote the session into ${readmePath}\n`);
  } else process.stdout.write(`${block}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`transcript: ${describeError(error)}\n`);
  process.exitCode = 1;
});
