/**
 * Reply scripts for the model server doubles: a fixed list replayed in order,
 * and failures injected in front of another script.
 */
import { makeError, q, X } from '@endo/errors';
import type { NormalizedRequest, ReplyScript, ScriptedFailure, ScriptedReply } from './types.js';

/**
 * Answers the n-th chat request with `list[n]`. Past the end it uses `after`
 * when given; otherwise the request fails (HTTP 500) with a message saying
 * the script ran out, so a test sees an unexpected extra call.
 */
export const scriptedReplies = (
  list: readonly ScriptedReply[],
  after?: ScriptedReply | ReplyScript,
): ReplyScript => {
  let next = 0;
  return (request: NormalizedRequest) => {
    const reply = list[next];
    next += 1;
    if (reply !== undefined) return reply;
    if (after !== undefined) return typeof after === 'function' ? after(request) : after;
    throw makeError(
      X`scripted replies exhausted: request ${q(next)} but only ${q(list.length)} scripted`,
    );
  };
};
harden(scriptedReplies);

/** The first `count` chat requests get `failure`; the rest go to `then`. */
export const failFirst = (
  count: number,
  failure: ScriptedFailure['failure'],
  then: ReplyScript,
): ReplyScript => {
  let failed = 0;
  return (request: NormalizedRequest) => {
    if (failed < count) {
      failed += 1;
      return { failure };
    }
    return then(request);
  };
};
harden(failFirst);

/** Every request fails the same way (a service that stays down). */
export const alwaysFail =
  (failure: ScriptedFailure['failure']): ReplyScript =>
  () => ({ failure });
harden(alwaysFail);
