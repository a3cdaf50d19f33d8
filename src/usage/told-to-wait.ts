/**
 * The messages held by the quota whose senders have been told when they
 * will be served, so a held message's sender hears it once, not again each
 * time the message comes back (nor after a restart: the list is the one in
 * the agent's store). A key goes when its message is served, and the list
 * is bounded in case a held message is dismissed by someone else.
 */
const KEPT = 256;

export interface ToldToWait {
  /** Whether this message's sender was told already; notes it when not. */
  tellOnce(key: string): boolean;
  /** The message is served now: forgets it. */
  served(key: string): void;
}

export const makeToldToWait = (stored: string[]): ToldToWait => ({
  tellOnce(key) {
    if (stored.includes(key)) return false;
    stored.push(key);
    if (stored.length > KEPT) stored.splice(0, stored.length - KEPT);
    return true;
  },
  served(key) {
    const index = stored.indexOf(key);
    if (index !== -1) stored.splice(index, 1);
  },
});
harden(makeToldToWait);
