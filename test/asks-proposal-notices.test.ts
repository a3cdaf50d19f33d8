/**
 * What the model is told of an eval-proposal made before a restart (src/asks/proposal-notices.ts,
 * docs/architecture.md's notice table): NOT RUN when the agent knows it did not run, UNKNOWN only
 * when it cannot tell, REJECTED and GRANTED as its copy says.
 */
import { describe, expect, it } from 'vitest';
import { resumedProposalNotice } from '../src/asks/proposal-notices.js';
import type { StoredAsk } from '../src/asks/pending-asks.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const ask = (resultName?: string): StoredAsk => ({
  id: 'p4',
  kind: 'proposal',
  recipient: 'HOST',
  description: '6 * 7',
  origin: { number: '3', sender: 'HOST' },
  detail: resultName === undefined ? {} : { resultName },
});

/** Guest powers whose directory holds `kept`; the paths looked up or asked about are noted. */
const powersHolding = (kept: Record<string, unknown>) => {
  const looked: unknown[] = [];
  const powers = {
    // Asked whether a value is there, never refused (a refused lookup is a raw line in the agent's log).
    has: (...path: string[]) => {
      looked.push(path.join('/'));
      return path.join('/') in kept;
    },
    lookup: (path: string | string[]) => {
      looked.push(path);
      const name = Array.isArray(path) ? path.join('/') : path;
      if (!(name in kept)) throw Error(`Unknown pet name ${name}`);
      return kept[name];
    },
  } as unknown as PowersRef;
  return { powers, looked };
};

describe('a proposal made before a restart', () => {
  it('whose copy is gone and whose result name holds nothing: NOT RUN, it was not granted', async () => {
    const { powers, looked } = powersHolding({});
    const { text, origin } = await resumedProposalNotice(ask('answer'), 'lost', powers);
    expect(text).toMatch(
      /^NOT RUN: your proposal p4 \(6 \* 7\) was still waiting for the host when I restarted, and the restart ended it: it was not granted \(nothing is kept as "answer"\), and the host can no longer grant it\.\nNext: propose it again only if it is still needed, and tell HOST/,
    );
    expect(origin).toMatchObject({ sender: 'HOST' });
    expect(looked).toEqual(['answer']);
  });

  it('whose copy is gone and whose result name holds a value (maybe an earlier one): UNKNOWN', async () => {
    const { powers } = powersHolding({ answer: 41 });
    const { text } = await resumedProposalNotice(ask('answer'), 'lost', powers);
    expect(text).toMatch(
      /^UNKNOWN: I restarted while your proposal p4 \(6 \* 7\) waited for the host, and I can no longer tell whether it ran\./,
    );
  });

  it('with no result name kept: NOT RUN, nothing looked up', async () => {
    const { powers, looked } = powersHolding({ '': 1 });
    const { text } = await resumedProposalNotice(ask(), 'lost', powers);
    expect(text).toContain('the restart ended it: it was not granted before I stopped, and');
    expect(looked).toEqual([]);
  });

  it('granted as the agent stopped: UNKNOWN, whatever its result name holds', async () => {
    const { powers } = powersHolding({});
    const { text } = await resumedProposalNotice(ask('answer'), 'interrupted', powers);
    expect(text).toMatch(/^UNKNOWN: /);
  });

  it('rejected, or granted, as its copy says', async () => {
    const { powers } = powersHolding({ answer: 42 });
    expect((await resumedProposalNotice(ask('answer'), 'rejected', powers)).text).toMatch(
      /^REJECTED: the host did not run your proposal p4 \(6 \* 7\); its reason did not reach me/,
    );
    expect((await resumedProposalNotice(ask('answer'), 'fulfilled', powers)).text).toMatch(
      /^GRANTED: the host ran your proposal p4 \(6 \* 7\) while I restarted\. Result, kept as "answer": 42\n/,
    );
    const { powers: empty } = powersHolding({});
    expect((await resumedProposalNotice(ask('answer'), 'fulfilled', empty)).text).toContain(
      'Result, kept as "answer": (it ran, but "answer" could not be read: Unknown pet name answer)',
    );
  });
});
