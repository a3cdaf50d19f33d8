/**
 * The layers of src/ are held by `npm run lint:layers` (dependency-cruiser with the rule set in
 * .dependency-cruiser.mjs, docs/architecture.md "Layers"). This proves the rule set bites: a
 * tiny src/ with an import back up a layer, one to a later peer of its layer, two folders that
 * import each other and a folder no layer names fails the lint with each rule named, while the
 * imports that run down pass; two modules of one folder that import each other fail too.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { repoRoot } from './support/repo-files.js';

const run = promisify(execFile);

const fixture = mkdtempSync(join(tmpdir(), 'lal-fae-layers-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

const write = (file: string, text: string) => {
  mkdirSync(dirname(join(fixture, file)), { recursive: true });
  writeFileSync(join(fixture, file), text);
};

/** Runs the lint's own command on the fixture; its text output and whether it failed. */
const lint = async (): Promise<{ failed: boolean; output: string }> => {
  const command = [
    join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    'src',
    '--no-progress',
    '--config',
    join(repoRoot, '.dependency-cruiser.mjs'),
  ];
  try {
    const { stdout } = await run(process.execPath, command, { cwd: fixture });
    return { failed: false, output: stdout };
  } catch (error) {
    const { stdout } = error as { stdout: string };
    return { failed: true, output: stdout };
  }
};

describe('the layer rules (npm run lint:layers)', () => {
  test('an import back up, to a later peer, a pair of folders and an unplaced folder each fail by name; downward imports pass', async () => {
    write(
      'tsconfig.json',
      '{"compilerOptions":{"module":"NodeNext","moduleResolution":"NodeNext"}}',
    );
    // Down: serving → settings, capabilities → an earlier peer (asks → schedule). Fine.
    write(
      'src/serving/serve.ts',
      "import { limit } from '../settings/limit.js';\nexport const serve = limit;\n",
    );
    write(
      'src/asks/ask.ts',
      "import { wake } from '../schedule/wake.js';\nexport const ask = wake;\n",
    );
    // Up: a leaf imports serving.
    write(
      'src/settings/limit.ts',
      "import type { Turn } from '../serving/turn.js';\nexport const limit = (turn?: Turn) => turn;\n",
    );
    write('src/serving/turn.ts', 'export type Turn = { id: string };\n');
    // A later peer: schedule (first of the capabilities) imports channels (last).
    write(
      'src/schedule/wake.ts',
      "import { room } from '../channels/room.js';\nexport const wake = room;\n",
    );
    write('src/channels/room.ts', 'export const room = 1;\n');
    // A folder no layer names.
    write(
      'src/gadgets/gadget.ts',
      "import { room } from '../channels/room.js';\nexport const gadget = room;\n",
    );
    // Two folders of one layer that import each other (mail ↔ history).
    write(
      'src/mail/note.ts',
      "import { line } from '../history/line.js';\nexport const note = line;\n",
    );
    write('src/history/line.ts', "export { note as line } from '../mail/note.js';\n");
    // Two modules of one folder that import each other, a type-only import one way.
    write(
      'src/agent-tools/registry.ts',
      "import { choose } from './offered.js';\nexport type Tool = { name: string };\nexport const registry = choose;\n",
    );
    write(
      'src/agent-tools/offered.ts',
      "import type { Tool } from './registry.js';\nexport const choose = (tool?: Tool) => tool;\n",
    );

    const { failed, output } = await lint();
    expect(failed).toBe(true);
    const errors = output.split('\n').filter(line => /^\s*error /.test(line));
    const said = (rule: string, from: string, to: string) =>
      errors.some(line => line.includes(`${rule}:`) && line.includes(from) && line.includes(to));
    expect(
      said('no-upward-import-from-leaves', 'src/settings/limit.ts', 'src/serving/turn.ts'),
    ).toBe(true);
    expect(
      said('no-later-peer-import-from-schedule', 'src/schedule/wake.ts', 'src/channels/room.ts'),
    ).toBe(true);
    expect(said('folder-in-a-layer', 'src/gadgets/gadget.ts', 'src/channels/room.ts')).toBe(true);
    expect(said('no-later-peer-import-from-mail', 'src/mail/note.ts', 'src/history/line.ts')).toBe(
      true,
    );
    expect(errors.some(line => line.includes('no-folder-cycle:'))).toBe(true);
    expect(
      errors.some(
        line => line.includes('no-module-cycle:') && line.includes('src/agent-tools/offered.ts'),
      ) ||
        errors.some(
          line => line.includes('no-module-cycle:') && line.includes('src/agent-tools/registry.ts'),
        ),
    ).toBe(true);
    // What runs down is not reported.
    expect(errors.filter(line => line.includes('src/serving/serve.ts'))).toEqual([]);
    expect(errors.filter(line => line.includes('src/asks/ask.ts'))).toEqual([]);
  });
});
