/**
 * Each party pays its own way (docs/behaviour.md 9.12): what a turn sets
 * going that outlives it (a schedule, a helper) is counted against the
 * party whose turn made it, each party against a bound of its own, so one
 * peer filling its slots never takes the HOST's, nor another peer's.
 */

/** The party a turn serves: the sender of its message, or the HOST for the agent's own work. */
export const partyOf = (origin: { sender: string } | undefined, hostName: string): string =>
  origin === undefined ? hostName : origin.sender;
harden(partyOf);

/** How many each party holds, the HOST first, then by name. */
export const countByParty = (
  parties: readonly string[],
  hostName: string,
): [party: string, count: number][] => {
  const counts = new Map<string, number>();
  for (const party of parties) counts.set(party, (counts.get(party) ?? 0) + 1);
  // The HOST first; a party is counted once, so no two names are equal.
  const rank = (party: string) => (party === hostName ? 0 : 1);
  return [...counts].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
};
harden(countByParty);

/**
 * Why `party` may not take one more slot (undefined: it may): `held` names
 * the party of each slot taken; each party has `max` of its own.
 */
export const slotRefusal = (options: {
  held: readonly string[];
  party: string;
  max: number;
  /** e.g. "wake-ups are pending", "helpers are running". */
  what: string;
  setting: string;
  /** How to free one. */
  free: string;
}): string | undefined => {
  const { held, party, max, what, setting, free } = options;
  const mine = held.filter(each => each === party).length;
  return mine < max
    ? undefined
    : `${mine} ${what} already for ${party}, the most each party may have (${setting}); ${free}`;
};
harden(slotRefusal);

/** For help(): each party's count against its bound, e.g. "HOST 2 of 16, mallory 16 of 16". */
export const describeSlots = (held: readonly string[], hostName: string, max: number): string =>
  countByParty(held, hostName)
    .map(([party, count]) => `${party} ${count} of ${max}`)
    .join(', ');
harden(describeSlots);
