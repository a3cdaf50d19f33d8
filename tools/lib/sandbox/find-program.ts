/**
 * Finds an executable on a search path (`PATH`), as the shell would, without
 * running anything. The caller says which path: the worker's own by default.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export const findProgram = (name: string, searchPath: string | undefined): string | undefined => {
  for (const folder of (searchPath ?? '').split(':')) {
    if (folder === '' || !path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
};
harden(findProgram);
