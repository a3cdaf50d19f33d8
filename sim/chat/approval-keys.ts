/**
 * On a terminal, y, n or a answers a tool call waiting for approval as one
 * key, as the prompt reads ("allow it? y (yes) · n (no) · a (always …)"), the
 * way Claude Code and aider ask: the key pressed at an empty prompt while a
 * call waits is taken at once, with no Enter. Any other key, or one pressed
 * after others on the line, is typing as usual. Piped input keeps lines
 * (./answer-approval.ts reads the same letters there).
 */
import type { Interface } from 'node:readline';
import { approvalWaiting } from './answer-approval.js';
import type { HostInbox } from './host-inbox.js';

const KEYS = new Set(['y', 'n', 'a']);

export const takeApprovalKeys = (
  readline: Interface,
  input: NodeJS.ReadableStream,
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
  /** Answers it with the key pressed, as a line typed would be. */
  answer: (key: string) => void,
): (() => void) => {
  const onKey = (text: string | undefined, key: { ctrl?: boolean; meta?: boolean } | undefined) => {
    if (text === undefined || key?.ctrl === true || key?.meta === true) return;
    const typed = text.toLowerCase();
    // readline's own listener came first: the key is the line's only character when it stands alone.
    if (!KEYS.has(typed) || readline.line.toLowerCase() !== typed) return;
    if (approvalWaiting(inbox) === undefined) return;
    // Taken back from the line (Ctrl-U: what is left of the cursor), so it is not sent again with Enter.
    readline.write(null, { ctrl: true, name: 'u' });
    answer(typed);
  };
  input.on('keypress', onKey);
  return () => void input.off('keypress', onKey);
};
harden(takeApprovalKeys);
