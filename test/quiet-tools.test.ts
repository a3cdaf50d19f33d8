/**
 * `npm test` is quiet and plain when its output is not a terminal: no colour
 * codes (vitest's colour library colours a pipe too; scripts/test.mjs sets
 * NO_COLOR), and none of the MCP SDK's tool-name warnings, which
 * test/mcp-fae.test.ts causes on purpose.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { isConsoleNoise } from './support/console-noise.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

describe('npm test, not on a terminal', () => {
  it(
    'prints no colour codes',
    () => {
      const { NO_COLOR: _no, FORCE_COLOR: _force, ...env } = process.env;
      const run = spawnSync(
        process.execPath,
        [join(repoRoot, 'scripts', 'test.mjs'), 'test/docs-links.test.ts'],
        { cwd: repoRoot, encoding: 'utf8', env: { ...env, TERM: 'xterm-256color' } },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/passed/);
      expect(`${run.stdout}${run.stderr}`).not.toContain('\x1b[');
    },
    2 * TEST_MS,
  );

  it("drops the MCP SDK's tool-name warnings and keeps other console lines", () => {
    const warnings = [
      'Tool name validation warning for "files read":',
      '  - Tool name contains spaces, which may cause parsing issues',
      '  - Allowed characters are: A-Z, a-z, 0-9, underscore (_), dash (-), and dot (.)',
      'Tool registration will proceed, but this may cause compatibility issues.',
      'Consider updating the tool name to conform to the MCP tool naming standard.',
      'See SEP: Specify Format for Tool Names (https://github.com/modelcontextprotocol/modelcontextprotocol/issues/986) for more details.',
    ];
    for (const line of warnings) expect(isConsoleNoise(line), line).toBe(true);
    expect(isConsoleNoise('a line a test printed on purpose')).toBe(false);
    // vitest.config.ts leaves out what is noise.
    expect(readFileSync(join(repoRoot, 'vitest.config.ts'), 'utf8')).toContain(
      'onConsoleLog: log => !isConsoleNoise(log)',
    );
  });
});
