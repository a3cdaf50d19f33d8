/**
 * A channel member's heat, the newest daemon's rate limit: each post adds
 * 90 / burstLimit, heat cools at sustainedRate posts a minute, and reaching
 * 90 locks the member out for lockoutDurationMs (its posts then fail with
 * `Rate limit lockout for "x" (Ns remaining)`), after which heat restarts at
 * postLockoutPct. An inviter's limit applies to its invitees' posts too.
 */
import { quote } from './pet-name.js';
import type { MemberEntry } from './channel-store.js';

const LOCKOUT_AT = 90;

export type PostRateCheck = (nowMs: number) => void;

export const unlimited: PostRateCheck = () => {};
harden(unlimited);

export const makeHeatCheck = (entry: MemberEntry, parent: PostRateCheck): PostRateCheck => {
  let heat = 0;
  let lockEnd = 0;
  let last = 0;
  const lockedOut = (remainingMs: number) =>
    Error(
      `Rate limit lockout for ${quote(entry.invitedAs)} (${Math.ceil(remainingMs / 1000)}s remaining)`,
    );
  return nowMs => {
    parent(nowMs);
    const config = entry.heatConfig;
    if (config === null) return;
    const perPost = LOCKOUT_AT / config.burstLimit;
    if (lockEnd > 0) {
      if (nowMs < lockEnd) throw lockedOut(lockEnd - nowMs);
      heat = config.postLockoutPct;
      lockEnd = 0;
      last = nowMs;
    }
    if (last > 0)
      heat = Math.max(0, heat - perPost * (config.sustainedRate / 60) * ((nowMs - last) / 1000));
    heat += perPost;
    last = nowMs;
    if (heat >= LOCKOUT_AT) {
      lockEnd = nowMs + config.lockoutDurationMs;
      throw lockedOut(config.lockoutDurationMs);
    }
  };
};
harden(makeHeatCheck);
