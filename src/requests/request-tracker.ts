/**
 * Requests the agent makes (`request` asks someone for a value, and the
 * daemon's promise settles only when they answer). Like proposals, a
 * request returns at once and its outcome comes back as a notice, so a slow
 * answer never holds up the agent's other mail. Each open request is kept
 * in the agent's store (pending/pending-asks.ts): answered after a restart,
 * it still reaches the message it was made for.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue, type Origin } from '../notices.js';
import {
  isDisconnection,
  originOfAsk,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from '../pending/pending-asks.js';

const VALUE_PREVIEW_CHARS = 2_000;

export interface RequestTracker {
  request(ask: {
    recipient: string;
    description: string;
    responseName: string | undefined;
    origin: Origin | undefined;
  }): Readonly<Record<string, unknown>>;
  /** Whether a request made for this message is still unanswered. */
  hasPendingFor(number: bigint): boolean;
  /** Finishes a request made before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
}

const describeAsk = (
  requestId: string,
  recipient: string,
  description: string,
  responseName: string | undefined,
) => ({
  asked: `your request ${requestId} to ${recipient} (${JSON.stringify(cut(description, 100))})`,
  kept: responseName === undefined ? '' : `, kept as "${responseName}"`,
});

export const makeRequestTracker = (options: {
  powers: PowersRef;
  notices: NoticeQueue;
  asks: PendingAsks;
}): RequestTracker => {
  const { powers, notices, asks } = options;

  const answered = async (
    requestId: string,
    recipient: string,
    description: string,
    responseName: string | undefined,
    origin: Origin | undefined,
    value: unknown,
  ) => {
    const rendered = cut(await renderForModel(value), VALUE_PREVIEW_CHARS);
    asks.settle(requestId);
    const { asked, kept } = describeAsk(requestId, recipient, description, responseName);
    notices.push({
      id: requestId,
      text: `ANSWERED: ${recipient} answered ${asked}${kept}: ${rendered}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
      origin,
    });
  };

  const declined = (
    requestId: string,
    recipient: string,
    description: string,
    origin: Origin | undefined,
    reason: string,
  ) => {
    asks.settle(requestId);
    const { asked } = describeAsk(requestId, recipient, description, undefined);
    notices.push({
      id: requestId,
      text: `DECLINED: ${recipient} did not grant ${asked}: ${reason}\nNext: tell ${whomToTell(origin)}.`,
      origin,
    });
  };

  const request: RequestTracker['request'] = ({ recipient, description, responseName, origin }) => {
    const requestId = asks.reserve('r');
    asks.add({
      id: requestId,
      kind: 'request',
      recipient,
      description,
      ...(origin === undefined ? {} : { origin: storedOrigin(origin)! }),
      detail: responseName === undefined ? {} : { responseName },
    });
    Promise.resolve(E(powers).request(recipient, description, responseName)).then(
      (value: unknown) =>
        asks.stopped()
          ? undefined
          : answered(requestId, recipient, description, responseName, origin, value),
      (error: unknown) => {
        // The daemon going away (or this run stopping) is no answer: the request stays stored for the next run.
        if (asks.stopped() || isDisconnection(error)) return;
        declined(
          requestId,
          recipient,
          description,
          origin,
          error instanceof Error ? error.message : String(error),
        );
      },
    );
    return harden({
      status: 'pending',
      requestId,
      note: `Asked ${recipient}. You will get an ANSWERED or DECLINED notice; do not wait for it.`,
    });
  };

  const resume: RequestTracker['resume'] = async (ask, settlement) => {
    const origin = originOfAsk(ask);
    const responseName =
      typeof ask.detail.responseName === 'string' ? ask.detail.responseName : undefined;
    if (settlement === 'rejected') {
      declined(
        ask.id,
        ask.recipient,
        ask.description,
        origin,
        'they declined it (their reason did not reach me across my restart)',
      );
      return;
    }
    if (settlement === 'lost') {
      asks.settle(ask.id);
      const { asked } = describeAsk(ask.id, ask.recipient, ask.description, undefined);
      notices.push({
        id: ask.id,
        text: `UNKNOWN: I restarted while waiting for ${asked}, and its copy is no longer in my inbox, so I cannot tell whether it was answered.\nNext: ask again if it is still needed, and tell ${whomToTell(origin)}.`,
        origin,
      });
      return;
    }
    let value: unknown =
      '(answered; the value itself did not survive my restart: give a responseName to keep answers)';
    if (responseName !== undefined) {
      value = await Promise.resolve(E(powers).lookup(responseName)).catch(
        (error: unknown) =>
          `(answered, but "${responseName}" could not be read: ${error instanceof Error ? error.message : String(error)})`,
      );
    }
    await answered(ask.id, ask.recipient, ask.description, responseName, origin, value);
  };

  return {
    request,
    hasPendingFor: number =>
      asks.pending().some(ask => ask.kind === 'request' && ask.origin?.number === String(number)),
    resume,
  };
};
