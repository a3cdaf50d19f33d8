/** The repository's own files, as the documentation tests read them. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (this file is test/support/repo-files.ts). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A file of the repository, by its path from the root (`docs/configuration.md`). */
export const readRepoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
