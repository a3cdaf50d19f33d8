/**
 * A `.env` that cannot be read because it belongs to someone else (README,
 * "Settings"): a chmod of the person's own would fail too, so the one line
 * says who owns it and what would fix it; their own file gets the chmod.
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deniedLine } from '../sim/chat/dotenv.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const dotenvModule = pathToFileURL(join(repoRoot, 'dist/sim/chat/dotenv.js')).href;

describe("a .env that is someone else's", () => {
  // Run as root (as here and in CI containers), the child reads it as nobody: root's file is another user's.
  it.skipIf(process.getuid?.() !== 0)(
    'names its owner and what would fix it (runs only as root: the child reads the file as nobody)',
    () => {
      const folder = makeTempFolder('env-owner');
      // Its folders open to others: only the file is closed. The run's temporary root above it is
      // every test file's: it is closed again once the child has read (test/support/temp-root.ts).
      const root = dirname(folder);
      const rootMode = statSync(root).mode % 0o1000;
      chmodSync(root, 0o711);
      chmodSync(folder, 0o755);
      const file = join(folder, '.env');
      writeFileSync(file, 'LAL_MODEL=x\n', { mode: 0o600 });
      let read: SpawnSyncReturns<string>;
      try {
        read = spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `import '@endo/init'; const { loadEnv } = await import(${JSON.stringify(dotenvModule)}); process.stdout.write(loadEnv(${JSON.stringify(folder)}, {}).unreadable ?? 'read');`,
          ],
          { cwd: repoRoot, uid: 65534, gid: 65534, encoding: 'utf8' },
        );
      } finally {
        chmodSync(root, rootMode);
      }
      expect(statSync(root).mode % 0o1000).toBe(rootMode);
      expect(read.stderr).toBe('');
      expect(read.stdout).toBe(
        `${file} could not be read: permission denied; it belongs to another user (uid 0), so only they or root can change that (sudo chown $(id -u) ${file}), or move it away and write a .env of your own`,
      );
    },
  );

  it('names the chmod for one of your own, the owner for another', () => {
    expect(deniedLine('/x/.env', 1000, 1000)).toBe(
      '/x/.env could not be read: permission denied (chmod u+r /x/.env)',
    );
    expect(deniedLine('/x/.env', 0, 1000)).toMatch(/belongs to another user \(uid 0\)/);
    expect(deniedLine('/x/.env', undefined, 1000)).toMatch(/\(chmod u\+r \/x\/\.env\)$/);
  });
});
