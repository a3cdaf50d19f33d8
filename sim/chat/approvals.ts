/**
 * Asking before a tool acts (README, "What runs without asking you"): in
 * `npm start` the person is the HOST, whom the daemon trusts, so the agent's
 * policy is told to put each call of a side-effecting tool to the HOST first
 * all the same (LAL_TOOLS_CONFIRM, the daemon's own approval path). An
 * answer of "always" for a tool is kept in the state folder: from the next
 * run that tool is no longer named, and in this run its requests are
 * approved as they come. A LAL_TOOLS_CONFIRM the person sets names tools to
 * ask about besides those (a list that replaced them would let runCommand act
 * unasked because of another tool's name, or a misspelt one); `--yes` leaves
 * the policy as given. `--fresh` forgets the answers, for later runs too.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sideEffectToolNames } from '../../tools/index.js';

const FILE = 'approvals.json';
const VERSION = 1;
const SETTING = 'LAL_TOOLS_CONFIRM';

interface KeptApprovals {
  version: number;
  /** Tools answered "always": their calls run without asking. */
  always: string[];
}

export const makeApprovals = (folder: string, fresh: boolean) => {
  const path = join(folder, FILE);
  // Forgotten, not only unread: the next run without --fresh must not find them again.
  if (fresh) rmSync(path, { force: true });
  const read = (): string[] => {
    if (!existsSync(path)) return [];
    const kept = JSON.parse(readFileSync(path, 'utf8')) as KeptApprovals;
    if (kept.version !== VERSION || !Array.isArray(kept.always))
      throw Error(`${path} is not a file this version can read`);
    return kept.always.filter(name => typeof name === 'string');
  };
  const always = new Set(read());

  return harden({
    path,
    /**
     * The settings with the tools to ask about: the side-effecting ones not
     * answered "always", and those the person named; with --yes only theirs.
     */
    settingsFor(settings: Record<string, string>, yes: boolean): Record<string, string> {
      if (yes) return settings;
      const named = (settings[SETTING] ?? '')
        .split(',')
        .map(name => name.trim())
        .filter(name => name !== '');
      const asked = [
        ...new Set([...sideEffectToolNames.filter(name => !always.has(name)), ...named]),
      ];
      // An empty list would be read as written and said at start as a mistake: left as it was instead.
      return asked.length === 0 ? settings : { ...settings, [SETTING]: asked.join(',') };
    },
    isAlways: (tool: string): boolean => always.has(tool),
    /** "always" for this tool: kept, and its calls run without asking from now on. */
    allowAlways(tool: string): void {
      always.add(tool);
      const kept: KeptApprovals = { version: VERSION, always: [...always].sort() };
      writeFileSync(`${path}.new`, JSON.stringify(kept), { mode: 0o600 });
      renameSync(`${path}.new`, path);
    },
    /** For /status. */
    describe(): string {
      return always.size === 0
        ? `Always allowed: none (answer an approval request with "a" to allow a tool always; kept in ${path})`
        : `Always allowed (your answers, kept in ${path}): ${[...always].sort().join(', ')}`;
    },
  });
};
harden(makeApprovals);
export type Approvals = ReturnType<typeof makeApprovals>;
