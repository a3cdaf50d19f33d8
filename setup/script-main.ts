/**
 * The entry `endo run --UNCONFINED` calls, for a setup script: the CLI prints
 * whatever `main` throws with its stack (bin/endo.cjs), which tells a person
 * nothing they can act on. A failure is said in one line instead, and the
 * exit code is 1 (the CLI leaves `process.exitCode` as set).
 */
import { sayToStderr, type Say } from './say.js';

export const scriptMain =
  <Args extends unknown[]>(run: (...args: Args) => Promise<void>, say: Say = sayToStderr) =>
  async (...args: Args): Promise<void> => {
    try {
      await run(...args);
    } catch (error) {
      say(`setup failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  };
harden(scriptMain);
