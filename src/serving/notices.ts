/**
 * Outcomes that arrive while the agent does other things (a proposal
 * granted or rejected, a request answered): queued as notices, shown to the
 * model before its next call, or starting a turn of their own when the
 * agent is idle. What a notice is (and its stored form) is ../mail/origin.ts.
 */
import type { Notice, NoticeQueue, Origin, StoredNotice } from '../mail/origin.js';

/**
 * `stored` (the agent's store) mirrors the queue, so an outcome that arrived
 * but was not yet shown to the model is still told after a restart; what it
 * holds at the start is queued again (and `onNotice` called).
 */
export const makeNoticeQueue = (onNotice: () => void, stored: StoredNotice[] = []): NoticeQueue => {
  const queued: Notice[] = stored.map(entry => ({
    id: entry.id,
    text: entry.text,
    origin:
      entry.origin === undefined
        ? undefined
        : { number: BigInt(entry.origin.number), sender: entry.origin.sender },
  }));
  const mirror = () => {
    stored.splice(
      0,
      stored.length,
      ...queued.map(notice => ({
        id: notice.id,
        text: notice.text,
        ...(notice.origin === undefined
          ? {}
          : { origin: { number: String(notice.origin.number), sender: notice.origin.sender } }),
      })),
    );
  };
  if (queued.length > 0) onNotice();
  const takeFor = (origin: Origin | undefined) => {
    const mine = (notice: Notice) => notice.origin?.number === origin?.number;
    const taken = queued.filter(mine);
    const others = queued.filter(notice => !mine(notice));
    queued.splice(0, queued.length, ...others);
    mirror();
    return taken;
  };
  return {
    push(notice) {
      queued.push(notice);
      mirror();
      onNotice();
    },
    putBack(notices) {
      queued.push(...notices);
      mirror();
    },
    take: () => {
      const taken = queued.splice(0, queued.length);
      mirror();
      return taken;
    },
    waitsFor: number => queued.some(notice => notice.origin?.number === number),
    takeFor,
    takeNext: () => (queued.length === 0 ? [] : takeFor(queued[0]!.origin)),
  };
};
harden(makeNoticeQueue);
