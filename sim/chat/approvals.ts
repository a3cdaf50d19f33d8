/**
 * Asking before a tool acts (README, "What runs without asking you"): in
 * `npm start` the person is the HOST, whom the daemon trusts, so the agent's
 * policy is told to put each call of a side-effecting tool to the HOST first
 * all the same (the list LAL_TOOLS_CONFIRM holds in the daemon, kept here
 * and read by the policy at each call). An answer of "always" for a tool is
 * kept in the state folder and ends the asking at once: its next call acts
 * unasked, in this run and the next. A LAL_TOOLS_CONFIRM the person sets names tools to
 * ask about besides those (a list that replaced them would let runCommand act
 * unasked because of another tool's name, or a misspelt one); `--yes` asks
 * about only those. `--fresh` forgets the answers, for later runs too.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sideEffectToolNames } from '../../tools/index.js';
import type { HostConfirm } from '../../src/policy/tool-policy.js';
import { readNames } from '../../src/settings/tool-policy-settings.js';

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
  // How confirmFor was set up (--yes, the tools named in LAL_TOOLS_CONFIRM), for /status.
  let asking: { yes: boolean; named: ReadonlySet<string> } = { yes: false, named: new Set() };

  return harden({
    path,
    /**
     * The tools npm start puts to the person first, read by the agent's policy
     * at each call (in place of LAL_TOOLS_CONFIRM, src/policy/tool-policy.ts):
     * the side-effecting ones and those the person named, less those answered
     * "always" (at once, in this run too); with --yes only those named. Each
     * says why it asks: npm start's default, or the person's setting.
     */
    confirmFor(settings: Readonly<Record<string, string>>, yes: boolean): HostConfirm {
      const named = readNames(settings, SETTING) ?? new Set<string>();
      asking = { yes, named };
      const byDefault = new Set<string>(yes ? [] : sideEffectToolNames);
      const why = (name: string): string | undefined => {
        if (always.has(name)) return undefined;
        if (named.has(name)) return `you named ${name} in ${SETTING}`;
        return byDefault.has(name)
          ? `npm start asks before ${name}, which changes files or runs commands (npm start --yes would not have asked)`
          : undefined;
      };
      return harden({
        why: (names: readonly string[]) => names.map(why).find(reason => reason !== undefined),
        tools: () => [...new Set([...byDefault, ...named])].filter(name => why(name) !== undefined),
        source: `npm start's list: ${yes ? 'with --yes only' : 'its default and'} ${SETTING}, less your answers of always`,
      });
    },
    isAlways: (tool: string): boolean => always.has(tool),
    /**
     * Why a call of this tool needs no answer, as the note that approves a request made before
     * says it (one kept from an earlier run, too): "you said always", or --yes (issue 45: --yes
     * and a request still waiting for it must not both show).
     */
    unaskedBy(tool: string): string | undefined {
      if (always.has(tool)) return 'you said always';
      return asking.yes && !asking.named.has(tool) ? 'by --yes' : undefined;
    },
    /** "always" for this tool: kept, and its calls run without asking from now on (its next one too). */
    allowAlways(tool: string): void {
      always.add(tool);
      const kept: KeptApprovals = { version: VERSION, always: [...always].sort() };
      writeFileSync(`${path}.new`, JSON.stringify(kept), { mode: 0o600 });
      renameSync(`${path}.new`, path);
    },
    /** For /status. */
    describe(): string {
      if (asking.yes) {
        const still = [...asking.named].filter(name => !always.has(name)).sort();
        return still.length === 0
          ? 'Always allowed: every tool, by --yes (npm start asks before none)'
          : `Always allowed: every tool but ${still.join(', ')}, by --yes (${SETTING} names those: you are asked before them)`;
      }
      return always.size === 0
        ? `Always allowed: none (answer an approval request with "a" to allow a tool always; kept in ${path})`
        : `Always allowed (your answers, kept in ${path}): ${[...always].sort().join(', ')}`;
    },
  });
};
harden(makeApprovals);
export type Approvals = ReturnType<typeof makeApprovals>;
