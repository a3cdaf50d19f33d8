/**
 * The mail host: an in-process double of the Endo daemon as a guest caplet
 * sees it (shared/spec/daemon-api.md).
 *
 * - Caplets run on CapTP loopbacks (one per worker): `powers` is a promise for
 *   a remote presence, `context` a remote object with only methods.
 * - `restart()` cancels every running caplet, breaks old connections (old powers
 *   and iterators reject "Disconnected"), reloads every mailbox (records rebuilt,
 *   so followMessages replays every undismissed one) and re-runs every caplet
 *   still formulated (also ones cancelled before; not ones collected because
 *   their name was rebound). A guest whose mailbox holds an undismissed eval-proposal
 *   fails to load: its powers reject and its caplets cannot be revived
 *   (`revive(name)` rejects with the reason). It refuses to restart while the
 *   HOST's own mailbox holds an undismissed eval-proposal (the host would not load).
 */
export { makeMailHost } from './mail-host.js';
export type { MailHost, MailHostOptions } from './mail-host.js';
export { isFormulaId } from './formula-id.js';
export { isPetName, isSpecialName, isName } from './pet-name.js';
export { GuestInterface, HostInterface, NewestGuestInterface, NewestHostInterface } from './interfaces.js';
export { DAEMON_PROFILES, specialNamesOf } from './profile.js';
export type { DaemonProfile, SpecialNames } from './profile.js';
export { formatLocator, idFromLocator } from './locator.js';
export type * from './types.js';
