/**
 * What leaving says of an approval request still unanswered (docs/behaviour.md 10.4, issue 45,
 * trial 15): kept for the next start, and then how to answer it, one plain clause each: what y, n
 * and a do, that /grant and /reject answer it too, and what /quit does to it; on a terminal of 60
 * or 80 columns each row within the width.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unansweredApprovals } from '../sim/chat/host-inbox.js';
import { makeTtyScreen } from '../sim/chat/screen.js';
import { columnsOf } from '../sim/chat/columns.js';
import { fakeTtyOutput } from './support/fake-tty-output.js';

const inboxOf = (...numbers: bigint[]) => ({
  pendingProposals: () => numbers,
  pendingKind: () => 'approval' as const,
});

describe('leaving with an approval request unanswered', () => {
  it('says it is kept, then one clause each for y, n and a, /grant and /reject, and /quit', () => {
    expect(unansweredApprovals(inboxOf(4n))!('fae')).toBe(
      'left with approval request #4 unanswered: it is kept, so fae asks again at the next start. ' +
        "Then y runs the call, n refuses it, a runs it and that tool's later calls without asking; " +
        '/grant 4 and /reject 4 answer it too; /quit leaves it waiting, as now.',
    );
  });

  it('of several, says which y, n and a answer', () => {
    expect(unansweredApprovals(inboxOf(4n, 6n))!('fae')).toBe(
      'left with approval requests #4, #6 unanswered: they are kept, so fae asks again at the next start. ' +
        "Then y runs the latest call, n refuses it, a runs it and that tool's later calls without asking; " +
        '/grant 6 and /reject 6 answer one too; /quit leaves them waiting, as now.',
    );
  });

  it.each([60, 80])('fits a terminal of %i columns', columns => {
    const { out, written } = fakeTtyOutput(columns);
    makeTtyScreen(out).print('note', unansweredApprovals(inboxOf(4n, 6n))!('fae'));
    // The screen's own colours and erasing taken out: what is left is what the rows show.
    const rows = stripVTControlCharacters(written()).split('\n');
    for (const row of rows) expect(columnsOf(row)).toBeLessThan(columns);
    expect(rows.join(' ')).toContain('/quit leaves them waiting');
  });
});
