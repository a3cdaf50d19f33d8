/**
 * Requests the agent makes (`request` asks someone for a value, and the
 * daemon's promise settles only when they answer). Like proposals, a
 * request returns at once and its outcome comes back as a notice, so a slow
 * answer never holds up the agent's other mail.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue, type Origin } from '../notices.js';

const VALUE_PREVIEW_CHARS = 2_000;

export interface RequestTracker {
  request(ask: { recipient: string; description: string; responseName: string | undefined; origin: Origin | undefined }): Readonly<Record<string, unknown>>;
  /** Whether a request made for this message is still unanswered. */
  hasPendingFor(number: bigint): boolean;
}

export const makeRequestTracker = (options: { powers: PowersRef; notices: NoticeQueue }): RequestTracker => {
  const { powers, notices } = options;
  // Unanswered requests by id, with the message each was made for.
  const pending = new Map<string, Origin | undefined>();
  let nextId = 1;

  const request: RequestTracker['request'] = ({ recipient, description, responseName, origin }) => {
    const requestId = `r${nextId}`;
    nextId += 1;
    pending.set(requestId, origin);
    const asked = `your request ${requestId} to ${recipient} (${JSON.stringify(cut(description, 100))})`;
    const kept = responseName === undefined ? '' : `, kept as "${responseName}"`;
    Promise.resolve(E(powers).request(recipient, description, responseName)).then(
      async (value: unknown) => {
        pending.delete(requestId);
        const rendered = cut(await renderForModel(value), VALUE_PREVIEW_CHARS);
        notices.push({
          id: requestId,
          text: `ANSWERED: ${recipient} answered ${asked}${kept}: ${rendered}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
          origin,
        });
      },
      (error: unknown) => {
        pending.delete(requestId);
        notices.push({
          id: requestId,
          text: `DECLINED: ${recipient} did not grant ${asked}: ${error instanceof Error ? error.message : String(error)}\nNext: tell ${whomToTell(origin)}.`,
          origin,
        });
      },
    );
    return harden({
      status: 'pending',
      requestId,
      note: `Asked ${recipient}. You will get an ANSWERED or DECLINED notice; do not wait for it.`,
    });
  };

  return {
    request,
    hasPendingFor: number => [...pending.values()].some(origin => origin?.number === number),
  };
};
