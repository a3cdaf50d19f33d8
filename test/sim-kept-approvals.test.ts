/**
 * The simulator's answers of "always" and the tools it asks about (README,
 * "What runs without asking you"): `--fresh` forgets the answers for good,
 * and a LAL_TOOLS_CONFIRM the person sets names tools to ask about besides
 * those that change files or run commands, never instead of them.
 */
import { describe, expect, it } from 'vitest';
import { makeApprovals } from '../sim/chat/approvals.js';
import { sideEffectToolNames } from '../tools/index.js';
import { useTempFolders } from './support/temp-folders.js';
import type { HostConfirm } from '../src/policy/tool-policy.js';
import { readRepoFile } from './support/repo-files.js';
import { COMMAND_HELP } from '../sim/chat/commands.js';

const makeTempFolder = useTempFolders();

const asked = (confirm: HostConfirm) => [...confirm.tools()];

describe('"always" answers in the state folder', () => {
  it('--fresh forgets them for the later runs too, not only its own', () => {
    const folder = makeTempFolder('state');
    makeApprovals(folder, false).allowAlways('runCommand');
    expect(makeApprovals(folder, false).isAlways('runCommand')).toBe(true);
    expect(makeApprovals(folder, true).isAlways('runCommand')).toBe(false);
    const after = makeApprovals(folder, false);
    expect(after.isAlways('runCommand')).toBe(false);
    expect(asked(after.confirmFor({}, false))).toContain('runCommand');
  });
});

describe('the tools npm start asks about', () => {
  it('by default, those that change files or run commands, less those answered always', () => {
    const folder = makeTempFolder('state');
    expect(asked(makeApprovals(folder, false).confirmFor({}, false)).sort()).toEqual(
      [...sideEffectToolNames].sort(),
    );
    makeApprovals(folder, false).allowAlways('runCommand');
    expect(asked(makeApprovals(folder, false).confirmFor({}, false))).not.toContain('runCommand');
  });

  it('LAL_TOOLS_CONFIRM set by the person adds its tools; runCommand and the file tools are still asked', () => {
    const approvals = makeApprovals(makeTempFolder('state'), false);
    const settings = approvals.confirmFor({ LAL_TOOLS_CONFIRM: ' math ,runComand' }, false);
    expect(asked(settings).sort()).toEqual([...sideEffectToolNames, 'math', 'runComand'].sort());
  });

  it('--yes asks about only what the person named', () => {
    const approvals = makeApprovals(makeTempFolder('state'), false);
    expect(asked(approvals.confirmFor({}, true))).toEqual([]);
    expect(asked(approvals.confirmFor({ LAL_TOOLS_CONFIRM: 'math' }, true))).toEqual(['math']);
  });
});

describe('what the policy reads of the answers', () => {
  it('"always" ends the asking at once, for the tools named too, each reason saying what asks', () => {
    const approvals = makeApprovals(makeTempFolder('state'), false);
    const confirm = approvals.confirmFor({ LAL_TOOLS_CONFIRM: 'math' }, false);
    expect(confirm.why(['runCommand'])).toMatch(/^npm start asks before runCommand, /);
    expect(confirm.why(['math'])).toBe('you named math in LAL_TOOLS_CONFIRM');
    expect(confirm.why(['readFile'])).toBeUndefined();
    approvals.allowAlways('runCommand');
    approvals.allowAlways('math');
    // The same confirm, read again: no restart needed.
    expect(confirm.why(['runCommand'])).toBeUndefined();
    expect(confirm.why(['math'])).toBeUndefined();
    expect(asked(confirm)).not.toContain('runCommand');
    // A grouped tool's call is read by its op and its group.
    expect(
      approvals.confirmFor({ LAL_TOOLS_CONFIRM: 'names' }, true).why(['remove', 'names']),
    ).toBe('you named names in LAL_TOOLS_CONFIRM');
  });
});

describe('the words of an approval request (issue 45, trial 12)', () => {
  /** What y, n and a do, as the request's prompt, /help and README say it. */
  const ANSWERS_DO =
    "y runs it · n refuses it · a runs it and runCommand's later calls without asking";

  it('say plainly why it asks, and what --yes would have done', () => {
    const why = makeApprovals(makeTempFolder('state'), false)
      .confirmFor({}, false)
      .why(['runCommand']);
    // Not `(its default: a answers always, --yes asks about none)`.
    expect(why).toBe(
      'npm start asks before runCommand, which changes files or runs commands (npm start --yes would not have asked)',
    );
  });

  it('say what y, n and a do in one wording: the prompt, /help and README', () => {
    const readme = readRepoFile('README.md');
    expect(readme).toContain(`  allow it? ${ANSWERS_DO}; then Enter — or /grant 4`);
    expect(readme).toContain(
      `asked because ${makeApprovals(makeTempFolder('state'), false).confirmFor({}, false).why(['runCommand'])!}\n`,
    );
    expect(COMMAND_HELP.replace(/\s+/g, ' ')).toContain(
      "while a tool call waits for approval: y runs it · n refuses it · a runs it and that tool's later calls without asking",
    );
  });
});
