/**
 * Outcomes that arrive while the agent does other things (a proposal
 * granted or rejected, a request answered): queued as notices, shown to the
 * model before its next call, or starting a turn of their own when the
 * agent is idle.
 */

/** The message an outcome belongs to: whom to tell about it. */
export interface Origin {
  number: bigint;
  sender: string;
}

export interface Notice {
  /** e.g. "p1" for a proposal, "r1" for a request. */
  id: string;
  /** The first word says what happened (GRANTED, REJECTED, ANSWERED, …). */
  text: string;
  origin: Origin | undefined;
}

export interface NoticeQueue {
  push(notice: Notice): void;
  take(): Notice[];
  /** Whether a notice about this message waits to be shown (its message must stay answerable). */
  waitsFor(number: bigint): boolean;
  /** Takes only the notices about this message (or, for undefined, those about none): a turn sees its own outcomes. */
  takeFor(origin: Origin | undefined): Notice[];
}

/** Notices grouped by the message they belong to, in arrival order. */
export const byOrigin = (
  notices: readonly Notice[],
): { origin: Origin | undefined; notices: Notice[] }[] => {
  const groups = new Map<string, { origin: Origin | undefined; notices: Notice[] }>();
  for (const notice of notices) {
    const key = notice.origin === undefined ? '' : String(notice.origin.number);
    const group = groups.get(key) ?? { origin: notice.origin, notices: [] };
    group.notices.push(notice);
    groups.set(key, group);
  }
  return [...groups.values()];
};
harden(byOrigin);

/** A notice as the agent's store keeps it (JSON: the origin's number is a string). */
export interface StoredNotice {
  id: string;
  text: string;
  origin?: { number: string; sender: string };
}

export const isStoredNotice = (value: unknown): value is StoredNotice => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const origin = record.origin as Record<string, unknown> | undefined;
  return (
    typeof record.id === 'string' &&
    typeof record.text === 'string' &&
    (origin === undefined ||
      (typeof origin.number === 'string' &&
        /^\d+$/.test(origin.number) &&
        typeof origin.sender === 'string'))
  );
};
harden(isStoredNotice);

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
  return {
    push(notice) {
      queued.push(notice);
      mirror();
      onNotice();
    },
    take: () => {
      const taken = queued.splice(0, queued.length);
      mirror();
      return taken;
    },
    waitsFor: number => queued.some(notice => notice.origin?.number === number),
    takeFor: origin => {
      const mine = (notice: Notice) => notice.origin?.number === origin?.number;
      const taken = queued.filter(mine);
      const others = queued.filter(notice => !mine(notice));
      queued.splice(0, queued.length, ...others);
      mirror();
      return taken;
    },
  };
};
harden(makeNoticeQueue);

/** How to name whom the model should tell, in a notice. */
export const whomToTell = (origin: Origin | undefined): string =>
  origin === undefined
    ? 'whoever asked for it'
    : `${origin.sender}, who asked in message #${origin.number} (use reply(${origin.number}, …))`;
harden(whomToTell);
