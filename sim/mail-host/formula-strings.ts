/**
 * How a daemon reads back the strings it wrote into a formula (a caplet's
 * env): at f0a46042a a formula file is written with q() (SES's
 * bestEffortStringify, daemon-node-powers.js writeFormula), which marks a
 * string that starts with "[" by wrapping it in "[…]"; the file is read back
 * with JSON.parse, which keeps the mark. So after a restart `["a"]` reads
 * `[["a"]]`. The newest daemon keeps its formulas in a database, unchanged.
 */
import type { DaemonProfile } from './profile.js';

const markedByQ = (value: string): string => (value.startsWith('[') ? `[${value}]` : value);

/** A caplet's env as its formula is read back after a restart. */
export const envAsStored = (
  profile: DaemonProfile,
  env: Readonly<Record<string, string>>,
): Record<string, string> =>
  profile === 'f0a46042a'
    ? Object.fromEntries(Object.entries(env).map(([name, value]) => [name, markedByQ(value)]))
    : { ...env };
harden(envAsStored);
