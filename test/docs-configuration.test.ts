// docs/configuration.md names every setting some part of lal-fae reads, and names no setting
// nothing reads (setup/known-settings.ts is the list the misspelt-setting check uses): LAL_RESTART
// and FAE_GUEST were read but had no row, and the table once said nothing of @host's trust.
import { describe, expect, it } from 'vitest';
import { KNOWN_SETTINGS } from '../setup/known-settings.js';
import { AGENT_SETTINGS, LIMIT_SETTINGS } from '../src/config/settings.js';
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

  it("shows each of the agent's settings as the table in src/config/settings.ts says it", () => {
    expect(AGENT_SETTINGS.length).toBeGreaterThan(30);
    const rowOf = (name: string) =>
      page.split('\n').find(line => line.startsWith(`| \`${name}\` |`));
    const differ = AGENT_SETTINGS.filter(
      setting =>
        rowOf(setting.env) !== `| \`${setting.env}\` | ${setting.default} | ${setting.doc} |`,
    ).map(setting => `${setting.env}: ${rowOf(setting.env) ?? 'no row'}`);
    expect(differ).toEqual([]);
  });

  it('takes the limits the agent uses from the same table', () => {
    expect(DEFAULT_LIMITS.maxModelCalls).toBe(LIMIT_SETTINGS.maxModelCalls.default);
    expect(page).toContain(`| \`LAL_MAX_MODEL_CALLS\` | ${DEFAULT_LIMITS.maxModelCalls} |`);
  });
});
