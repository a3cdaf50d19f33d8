/**
 * How a person's typed line answers a tool call waiting for approval (sim/chat/answer-approval.ts,
 * docs/behaviour.md 10.4): y, n or a, each a whole line (case and spaces aside), answer the latest
 * approval waiting; any other line is a message, and the person is told once per request that it
 * still waits; a letter typed when no approval waits is an answer come late, said so, while the
 * word (yes, no, always) is then a message. The module judged alone, with a host and an inbox
 * double, as sim-approvals judges it through a whole `npm start`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerAtPrompt, approveRequest } from '../sim/chat/answer-approval.js';
import { makeApprovals } from '../sim/chat/approvals.js';
import type { HostInbox } from '../sim/chat/host-inbox.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

type Kind = 'proposal' | 'approval' | 'code';

/** What waits in the HOST's inbox (number → kind and tool), what the host was called with, what the screen said. */
const setup = (waiting: [number, Kind, string?][], options: { dismissFails?: boolean } = {}) => {
  const calls: unknown[][] = [];
  const pending = new Map(waiting.map(([n, kind, tool]) => [BigInt(n), { kind, tool }]));
  const forgotten: bigint[] = [];
  const inbox = {
    pendingProposals: () => [...pending.keys()],
    pendingKind: (number: bigint) => pending.get(number)?.kind,
    pendingTool: (number: bigint) => pending.get(number)?.tool,
    forget: (number: bigint) => {
      forgotten.push(number);
      pending.delete(number);
    },
  } as unknown as HostInbox;
  const host = {
    storeValue: async (...args: unknown[]) => void calls.push(['storeValue', ...args]),
    resolve: async (...args: unknown[]) => void calls.push(['resolve', ...args]),
    reject: async (...args: unknown[]) => void calls.push(['reject', ...args]),
    dismiss: async (...args: unknown[]) => {
      calls.push(['dismiss', ...args]);
      if (options.dismissFails === true) throw Error('already gone');
    },
  };
  const notes: string[] = [];
  const screen = { print: (kind: string, text: string) => void notes.push(`${kind}: ${text}`) };
  const approvals = makeApprovals(makeTempFolder('approvals'), false);
  const answer = (text: string) =>
    answerAtPrompt(text, {
      host: host as never,
      inbox,
      approvals,
      screen: screen as never,
      guestName: 'lal',
    });
  return { answer, calls, notes, forgotten, approvals, inbox, pending };
};

describe('a short answer while an approval waits', () => {
  it('y approves the latest approval waiting (not a proposal or a request to run code after it)', async () => {
    const run = setup([
      [2, 'approval', 'readFile'],
      [3, 'approval', 'runCommand'],
      [5, 'approval', 'writeFile'],
      [6, 'code'],
      [7, 'proposal'],
    ]);
    expect(await run.answer('y')).toBe(true);
    expect(run.calls).toEqual([
      ['storeValue', 'approved', 'approved'],
      ['resolve', 5n, 'approved'],
      ['dismiss', 5n],
    ]);
    expect(run.forgotten).toEqual([5n]);
    expect(run.notes).toEqual(['note: approved #5']);
    expect(run.approvals.isAlways('writeFile')).toBe(false);
  });

  it('reads the whole line, case and spaces aside: yes, " Y ", YES', async () => {
    for (const line of ['yes', ' Y ', 'YES\t']) {
      const run = setup([[2, 'approval', 'runCommand']]);
      expect(await run.answer(line)).toBe(true);
      expect(run.calls.map(call => call[0])).toEqual(['storeValue', 'resolve', 'dismiss']);
      expect(run.notes).toEqual(['note: approved #2']);
    }
  });

  it('n or no refuses it, with the reason the agent hears, and nothing is approved', async () => {
    for (const line of ['n', 'No']) {
      const run = setup([[4, 'approval', 'runCommand']]);
      expect(await run.answer(line)).toBe(true);
      expect(run.calls).toEqual([
        ['reject', 4n, 'Refused by the host'],
        ['dismiss', 4n],
      ]);
      expect(run.forgotten).toEqual([4n]);
      expect(run.notes).toEqual(['note: refused #4']);
    }
  });

  it('a or always approves it and keeps the tool allowed, saying where', async () => {
    for (const line of ['a', 'always']) {
      const run = setup([[9, 'approval', 'runCommand']]);
      expect(await run.answer(line)).toBe(true);
      expect(run.calls).toEqual([
        ['storeValue', 'approved', 'approved'],
        ['resolve', 9n, 'approved'],
        ['dismiss', 9n],
      ]);
      expect(run.approvals.isAlways('runCommand')).toBe(true);
      expect(run.notes).toEqual([
        `note: approved #9; runCommand runs without asking from now on (kept in ${run.approvals.path})`,
      ]);
    }
  });

  it('a for a request whose tool is not known approves it once, keeping nothing', async () => {
    const run = setup([[9, 'approval']]);
    expect(await run.answer('a')).toBe(true);
    expect(run.calls.map(call => call[0])).toEqual(['storeValue', 'resolve', 'dismiss']);
    expect(run.notes).toEqual(['note: approved #9']);
    // Nothing kept in the state folder.
    expect(existsSync(run.approvals.path)).toBe(false);
  });

  it('a request already dismissed is still answered (the dismissal failing is no error)', async () => {
    const refused = setup([[4, 'approval', 'runCommand']], { dismissFails: true });
    expect(await refused.answer('n')).toBe(true);
    expect(refused.notes).toEqual(['note: refused #4']);
    const approved = setup([[4, 'approval', 'runCommand']], { dismissFails: true });
    expect(await approved.answer('y')).toBe(true);
    expect(approved.notes).toEqual(['note: approved #4']);
  });
});

describe('any other line while an approval waits', () => {
  it('is a message; the person is told once per request that it still waits, and how to answer', async () => {
    const run = setup([
      [2, 'approval', 'runCommand'],
      [3, 'proposal'],
    ]);
    for (const line of ['yes please', 'ya', 'y y', 'and'])
      expect(await run.answer(line)).toBe(false);
    expect(run.calls).toEqual([]);
    expect(run.forgotten).toEqual([]);
    expect(run.notes).toEqual([
      'note: approval request #2 still waits (that line went to lal as a message): answer it with a line of its own, y, n or a (always for runCommand), then Enter',
    ]);
    // A newer request is told of once too.
    run.pending.set(8n, { kind: 'approval', tool: undefined });
    expect(await run.answer('hello')).toBe(false);
    expect(await run.answer('hello again')).toBe(false);
    expect(run.notes.slice(1)).toEqual([
      'note: approval request #8 still waits (that line went to lal as a message): answer it with a line of its own, y, n or a (always for this tool), then Enter',
    ]);
  });

  it('each inbox is told of its own requests (a new run, new numbers or not)', async () => {
    const first = setup([[2, 'approval', 'runCommand']]);
    const second = setup([[2, 'approval', 'runCommand']]);
    await first.answer('hello');
    await second.answer('hello');
    expect(first.notes).toHaveLength(1);
    expect(second.notes).toHaveLength(1);
  });
});

describe('y, n or a typed when no approval waits', () => {
  it('is an answer come late: said so, not sent; when nothing at all waits, how to say it to the agent', async () => {
    const run = setup([]);
    for (const line of ['y', 'n', ' A ']) expect(await run.answer(line)).toBe(true);
    expect(run.calls).toEqual([]);
    expect(new Set(run.notes)).toEqual(
      new Set([
        'note: Nothing is waiting for your answer: y, n and a answer a tool call that asks for approval; write the word (yes, no) to say it to lal.',
      ]),
    );
    expect(run.notes).toHaveLength(3);
  });

  it('names the latest proposal or request to run code that waits, and how to answer it', async () => {
    const code = setup([
      [2, 'proposal'],
      [3, 'proposal'],
      [6, 'code'],
    ]);
    expect(await code.answer('y')).toBe(true);
    expect(code.notes).toEqual([
      'note: No tool call is waiting for approval (y, n and a answer those); request to run code #6 waits for /grant 6 or /reject 6; write the word (yes, no) to say it to lal.',
    ]);
    const proposal = setup([
      [5, 'code'],
      [6, 'code'],
      [7, 'proposal'],
    ]);
    expect(await proposal.answer('n')).toBe(true);
    expect(proposal.notes).toEqual([
      'note: No tool call is waiting for approval (y, n and a answer those); eval-proposal #7 waits for /grant 7 or /reject 7; write the word (yes, no) to say it to lal.',
    ]);
    expect(proposal.calls).toEqual([]);
  });

  it('the word (yes, no, always) is a message, with nothing said', async () => {
    const run = setup([[3, 'proposal']]);
    for (const line of ['yes', 'no', 'always', 'hello']) expect(await run.answer(line)).toBe(false);
    expect(run.notes).toEqual([]);
    expect(run.calls).toEqual([]);
  });
});

describe('approveRequest', () => {
  it('stores the answer, resolves the request with it, then dismisses it', async () => {
    const calls: unknown[][] = [];
    const host = {
      storeValue: async (...args: unknown[]) => void calls.push(['storeValue', ...args]),
      resolve: async (...args: unknown[]) => void calls.push(['resolve', ...args]),
      dismiss: async (...args: unknown[]) => void calls.push(['dismiss', ...args]),
    };
    await approveRequest(host as never, 12n);
    expect(calls).toEqual([
      ['storeValue', 'approved', 'approved'],
      ['resolve', 12n, 'approved'],
      ['dismiss', 12n],
    ]);
  });
});
