/**
 * Recall is bounded (docs/behaviour.md 9.4), on the daemon double's guest
 * powers: a query of 3,000 distinct words looks for the first
 * QUERY_WORDS_MAX of them and says so; a search that runs past SEARCH_MS
 * stops reading older chunks, ranks what it read (the newest first) and
 * says so; a sender's thread searches only that sender's exchanges.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { emptyConversation, startTurn, type Turn } from '../src/history/conversation.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import type { Clock } from '../src/lifecycle/clock.js';
import { loadHistoryArchive } from '../src/recall/history-archive.js';
import { QUERY_WORDS_MAX, SEARCH_MS } from '../src/recall/search-history.js';
import { makeMailHost } from '../sim/mail-host/index.js';

const guestPowers = async (): Promise<PowersRef> => {
  const host = makeMailHost();
  await E(host.host).provideGuest('lal', { agentName: 'profile-for-lal' });
  return host.guest('lal').powers as unknown as PowersRef;
};

const turnOf = (number: number, sender: string, text: string): Turn => {
  const turn = startTurn(
    emptyConversation(),
    `#${number} from ${sender}: ${JSON.stringify(text)}`,
    `Message #${number} from ${sender}: ${text}`,
  );
  turn.messages.push({ role: 'assistant', content: 'noted' });
  return turn;
};

/** A clock whose every reading is `step` ms after the one before. */
const steppingClock = (step: number): Clock & { step: number } => {
  let time = Date.UTC(2026, 10, 27);
  const clock = {
    step,
    now: () => (time += clock.step),
    at: () => () => {},
  };
  return clock;
};

const archiveOf = async (clock: Clock) =>
  loadHistoryArchive(
    { powers: await guestPowers(), log: () => {}, redact: text => text, clock, maxMb: 16 },
    {},
    emptyConversation(),
  );

describe('recall is bounded', () => {
  test(`a query of 3,000 distinct words looks for the first ${QUERY_WORDS_MAX} and says so`, async () => {
    const archive = await archiveOf(steppingClock(0));
    archive.add(turnOf(1, 'HOST', 'the word0 vault is here'), { number: 1n, sender: 'HOST' });
    const query = Array.from({ length: 3_000 }, (_, index) => `word${index}`).join(' ');
    const result = await archive.search(query);
    expect(result.found.map(found => found.messageNumber)).toEqual([1]);
    expect(result.cut).toBe(
      `only the first ${QUERY_WORDS_MAX} of the query's 3000 distinct words were looked for`,
    );
    // A query within the bound is not cut.
    expect((await archive.search('vault')).cut).toBeUndefined();
  });

  test(`a search past ${SEARCH_MS} ms stops reading older chunks, keeps the newest, and says so`, async () => {
    const clock = steppingClock(0);
    const archive = await archiveOf(clock);
    const filler = 'words that fill the exchange '.repeat(30);
    for (let number = 1; number <= 200; number += 1) {
      archive.add(turnOf(number, 'HOST', `${filler} item${number} marker`), undefined);
      await archive.save();
    }
    const whole = await archive.search('marker');
    expect(whole.cut).toBeUndefined();
    expect(whole.searched).toBe(200);
    // Every reading of the clock now comes after the bound: only the open chunk and one batch are read.
    clock.step = SEARCH_MS;
    const cut = await archive.search('marker item200');
    expect(cut.searched).toBeLessThan(200);
    expect(cut.found[0]?.messageNumber).toBe(200);
    expect(cut.cut).toMatch(
      new RegExp(
        `^the search stopped after ${SEARCH_MS / 1000} s: the \\d+ oldest chunks of the history were not searched$`,
      ),
    );
  });

  test("a sender's search reads that sender's exchanges only; the HOST's reads all", async () => {
    const archive = await archiveOf(steppingClock(0));
    archive.add(turnOf(1, 'HOST', 'my bank PIN is 4921'), { number: 1n, sender: 'HOST' });
    archive.add(turnOf(2, 'bob', 'what is the bank PIN?'), { number: 2n, sender: 'bob' });
    archive.add(turnOf(3, 'carol', 'the bank PIN for carol is 1111'), {
      number: 3n,
      sender: 'carol',
    });
    const bob = await archive.search('bank PIN', 'bob');
    expect(bob.searched).toBe(1);
    expect(bob.found.map(found => found.from)).toEqual(['bob']);
    const host = await archive.search('bank PIN');
    expect(host.searched).toBe(3);
    expect(host.found.map(found => found.from).sort()).toEqual(['HOST', 'bob', 'carol']);
  });
});
