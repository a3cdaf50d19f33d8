// docs/configuration.md names every setting some part of lal-fae reads, and names no setting
// nothing reads (setup/known-settings.ts is the list the misspelt-setting check uses): LAL_RESTART
// and FAE_GUEST were read but had no row, and the table once said nothing of @host's trust.
import { describe, expect, it } from 'vitest';
import { KNOWN_SETTINGS } from '../setup/known-settings.js';
import { AGENT_SETTINGS, LIMIT_SETTINGS } from '../src/settings/settings.js';
import { PROVIDER_SETTINGS } from '../providers/provider-settings.js';
import type { SettingRow } from '../providers/setting-row.js';
import { TOOL_SETTINGS } from '../tools/lib/tool-settings.js';
import { SETUP_SETTINGS } from '../setup/setup-settings.js';
import { DEFAULT_LIMITS } from '../src/config/config.js';
import { readRepoFile } from './support/repo-files.js';

const page = readRepoFile('docs/configuration.md');
/** The variables a row of a table names in its first cell (`A` / `B` rows name several). */
const rowNames = [...page.matchAll(/^\| ([^|]+) \|/gm)].flatMap(match =>
  [...match[1]!.matchAll(/`((?:LAL|FAE)_[A-Z0-9_]+)`/g)].map(name => name[1]!),
);
const ours = KNOWN_SETTINGS.filter(name => /^(LAL|FAE)_/.test(name));

describe('docs/configuration.md', () => {
  it('finds the settings and the table', () => {
    expect(ours).toContain('LAL_HOST');
    expect(rowNames).toContain('LAL_HOST');
  });

  it('names every setting some part of lal-fae reads', () => {
    expect(ours.filter(name => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('has a row only for settings something reads', () => {
    expect(rowNames.filter(name => !KNOWN_SETTINGS.includes(name))).toEqual([]);
  });

  // Each part keeps its rows beside its reader; a row that differs is named with the file to edit.
  const TABLES: [string, readonly SettingRow[]][] = [
    ['src/settings/settings.ts', AGENT_SETTINGS],
    ['providers/provider-settings.ts', PROVIDER_SETTINGS],
    ['tools/lib/tool-settings.ts', TOOL_SETTINGS],
    ['setup/setup-settings.ts', SETUP_SETTINGS],
  ];
  const lineOf = (row: SettingRow) =>
    `| ${[row.env, ...(row.alsoEnv ?? [])].map(name => `\`${name}\``).join(', ')} | ${row.default} | ${row.doc} |`;
  const rowOf = (row: SettingRow) =>
    page.split('\n').find(line => line.startsWith(`| \`${row.env}\``));

  it.each(TABLES)('shows each row of %s as that table says it', (_file, rows) => {
    expect(rows.length).toBeGreaterThan(5);
    const differ = rows
      .filter(row => rowOf(row) !== lineOf(row))
      .map(
        row => `${row.env}: the page has ${rowOf(row) ?? 'no row'}; the table says ${lineOf(row)}`,
      );
    expect(differ).toEqual([]);
  });

  it('has no row of a LAL_, FAE_ or MCP_ setting that no table holds', () => {
    const held = new Set(
      TABLES.flatMap(([, rows]) => rows.flatMap(row => [row.env, ...(row.alsoEnv ?? [])])),
    );
    const pageRows = [...page.matchAll(/^\| ([^|]+) \|/gm)].flatMap(match =>
      [...match[1]!.matchAll(/`((?:LAL|FAE|MCP)_[A-Z0-9_]+)`/g)].map(name => name[1]!),
    );
    expect(pageRows.length).toBeGreaterThan(60);
    expect(pageRows.filter(name => !held.has(name))).toEqual([]);
  });

  it('takes the limits the agent uses from the same table', () => {
    expect(DEFAULT_LIMITS.maxModelCalls).toBe(LIMIT_SETTINGS.maxModelCalls.default);
    expect(page).toContain(`| \`LAL_MAX_MODEL_CALLS\` | ${DEFAULT_LIMITS.maxModelCalls} |`);
  });
});
