/**
 * The mail host: an in-process double of the Endo daemon as a guest caplet
 * sees it (docs/daemon-api.md).
 *
 * - Caplets run on CapTP loopbacks (one per worker): `powers` is a promise for
 *   a remote presence, `context` a remote object with only methods.
 * - `restart()` cancels every running caplet, breaks old connections (old powers
 *   and iterators reject "Disconnected") and reloads every mailbox (records rebuilt,
 *   so followMessages replays every undismissed one). Like the daemon, it then
 *   makes again only what the host's `PINS` directory names (its revivePins,
 *   which the daemon at f0a46042a also runs after each collection: there the
 *   host's `cancel` of a pinned caplet is followed by its revival; the newest
 *   daemon revives PINS only at start, so a cancelled caplet stays down);
 *   every other caplet still formulated (also ones cancelled before; not ones
 *   collected because their name was rebound) stays dormant until something
 *   provides it (`revive(nameOrId)`, a look-up). A guest whose mailbox holds an
 *   undismissed eval-proposal fails to load: its caplets are still made, and every
 *   call on its powers rejects with the daemon's `Unknown message formula type`.
 *   It refuses to restart while the HOST's own mailbox holds an undismissed
 *   eval-proposal (the host would not load).
 * - `failFollowing(guest, times)` fails that guest's open followMessages
 *   iterators and its next `times` followMessages calls with the same error,
 *   to try an agent's recovery.
 * - `providePeerGuest(name)` makes an agent of a second daemon connected over
 *   Endo's network: a guest whose ids carry that daemon's node (so its
 *   messages' `from` does), which the host knows as `name`.
 */
// Re-exports: each value is hardened in the module that defines it; types have nothing at run time.
/* eslint-disable @endo/harden-exports */
export { makeMailHost } from './mail-host.js';
export type { KeptMessage, MailHost } from './mail-host.js';
export type { KeptChannelNames } from './kept-channels.js';
export type { WorkerConnection } from './caplets.js';
export { isFormulaId } from './formula-id.js';
export { DAEMON_PROFILES, specialNamesOf } from './profile.js';
export type { DaemonProfile } from './profile.js';
export type { SeededIdentity } from './seeded-ids.js';
export { idFromLocator } from './locator.js';
export { chatView } from './chat-view.js';
export { MESSAGE_STRING_LIMIT } from './interfaces.js';
/* eslint-enable @endo/harden-exports */
export type * from './types.js';
