/**
 * Caplet modules are named to the daemon by `file://` URL (it takes no
 * relative paths). Checking the file first turns a forgotten build into a
 * clear message instead of a failure deep inside the daemon's worker.
 */
import { Fail, q } from '@endo/errors';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const assertModuleExists = (specifier: string): string => {
  specifier.startsWith('file://') ||
    Fail`A caplet module must be named by a file:// URL, got ${q(specifier)}`;
  const file = fileURLToPath(specifier);
  existsSync(file) ||
    Fail`The caplet module ${q(file)} does not exist; build the package first (npm run build)`;
  return specifier;
};
harden(assertModuleExists);
