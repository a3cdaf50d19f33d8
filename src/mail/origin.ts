/**
 * The vocabulary of outcomes, a leaf every folder may import: the message
 * an outcome belongs to (`Origin`: whom to tell), the notice that tells it,
 * the queue's interface, and a notice as the agent's store keeps it. The
 * queue itself is ../serving/notices.ts.
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
  /** Puts taken notices back without starting a turn for them (their party is held; its release brings them). */
  putBack(notices: readonly Notice[]): void;
  /** Takes only the notices about this message (or, for undefined, those about none): a turn sees its own outcomes. */
  takeFor(origin: Origin | undefined): Notice[];
  /** Takes the notices about the message the first queued notice is about (none: an empty list). */
  takeNext(): Notice[];
}

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

/** How to name whom the model should tell, in a notice. */
export const whomToTell = (origin: Origin | undefined): string =>
  origin === undefined
    ? 'whoever asked for it'
    : `${origin.sender}, who asked in message #${origin.number} (use reply(${origin.number}, …))`;
harden(whomToTell);
