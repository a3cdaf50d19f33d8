/**
 * One setting as docs/configuration.md shows it. Each part of lal-fae that
 * reads settings keeps its rows in a table of this shape beside its reader
 * (the agent's in src/settings/settings.ts, the providers' in
 * provider-settings.ts, the tool caplets' in tools/lib/tool-settings.ts,
 * setup's and the developers' commands' in setup/setup-settings.ts); the
 * names setup passes, the misspelt-setting check and the page's rows all come
 * from these tables (test/docs-configuration.test.ts holds the page to them).
 * It lives here, in the library every part may import.
 */
export interface SettingRow {
  env: string;
  /** Variables the same row names after `env` (`MCP_COMMAND`, `MCP_ARGS`, `MCP_CWD`). */
  alsoEnv?: readonly string[];
  /** The default, as the table's second column says it. */
  default: string;
  /** What reads the value, and what it takes. */
  read: string;
  /** The table's third column. */
  doc: string;
}

/** Every variable the rows name, in order. */
export const settingNames = (rows: readonly SettingRow[]): readonly string[] =>
  harden(rows.flatMap(row => [row.env, ...(row.alsoEnv ?? [])]));
harden(settingNames);
