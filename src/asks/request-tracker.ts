/**
 * Requests the agent makes (`request` asks someone for a value, and the
 * daemon's promise settles only when they answer). Like proposals, a
 * request returns at once and its outcome comes back as a notice, so a slow
 * answer never holds up the agent's other mail. Each open request is kept
 * in the agent's store (./pending-asks.ts): answered after a restart,
 * it still reaches the message it was made for.
 */
import { E } from '@endo/far';
import { showHidden } from '../encoding/show-hidden.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue, type Origin } from '../mail/origin.js';
import {
  isDisconnection,
  originOfAsk,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from './pending-asks.js';
import { placed } from './stored-proposal.js';
import { describeError } from '../../providers/describe-error.js';

const VALUE_PREVIEW_CHARS = 2_000;

export interface RequestTracker {
  request(ask: {
    recipient: string;
    description: string;
    responseName: string | undefined;
    origin: Origin | undefined;
    /** Where the answer is kept, for a turn serving a party other than the HOST (src/parties/): its own directory. */
    directory?: readonly string[];
  }): Readonly<Record<string, unknown>>;
  /** Finishes a request made before a restart (or followed after a disconnection), once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
}

/** Where a stored request's answer was kept: its party's own directory, if it had one (src/parties/). */
const directoryOf = (ask: StoredAsk): string[] | undefined =>
  Array.isArray(ask.detail.directory) ? (ask.detail.directory as unknown[]).map(String) : undefined;

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

  const tell = (id: string, text: string, origin: Origin | undefined) => {
    notices.push({ id, text, origin });
    asks.told(id);
  };

  const answered = async (
    requestId: string,
    recipient: string,
    description: string,
    responseName: string | undefined,
    origin: Origin | undefined,
    value: unknown,
  ) => {
    const rendered = cut(await renderForModel(value), VALUE_PREVIEW_CHARS);
    const { asked, kept } = describeAsk(requestId, recipient, description, responseName);
    tell(
      requestId,
      `ANSWERED: ${recipient} answered ${asked}${kept}: ${rendered}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
      origin,
    );
  };

  const declined = (
    requestId: string,
    recipient: string,
    description: string,
    origin: Origin | undefined,
    reason: string,
  ) => {
    const { asked } = describeAsk(requestId, recipient, description, undefined);
    tell(
      requestId,
      `DECLINED: ${recipient} did not grant ${asked}: ${reason}\nNext: tell ${whomToTell(origin)}.`,
      origin,
    );
  };

  const request: RequestTracker['request'] = ask => {
    const { recipient, description, responseName, origin, directory } = ask;
    const requestId = asks.make('r', () => ({
      kind: 'request',
      recipient,
      description,
      ...(origin === undefined ? {} : { origin: storedOrigin(origin)! }),
      detail: {
        ...(responseName === undefined ? {} : { responseName }),
        ...(directory === undefined ? {} : { directory: [...directory] }),
      },
    }));
    // Shown escaped to whoever answers it (issue 30); the model's own text is kept as it wrote it.
    Promise.resolve(
      E(powers).request(
        recipient,
        showHidden(description),
        responseName === undefined ? undefined : placed(directory, responseName),
      ),
    ).then(
      async (value: unknown) => {
        if (asks.answer(requestId, 'yes') !== 'act') return;
        await answered(requestId, recipient, description, responseName, origin, value);
      },
      (error: unknown) => {
        // The daemon going away is no answer: the request keeps waiting.
        if (isDisconnection(error)) {
          asks.disconnected(requestId);
          return;
        }
        if (asks.answer(requestId, 'no') !== 'refuse') return;
        declined(requestId, recipient, description, origin, describeError(error));
      },
    );
    asks.sent(requestId);
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
        'they declined it (their reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was declined)',
      );
      return;
    }
    if (settlement === 'lost' || settlement === 'interrupted') {
      const { asked } = describeAsk(ask.id, ask.recipient, ask.description, undefined);
      tell(
        ask.id,
        `UNKNOWN: I restarted while waiting for ${asked}, and its copy is no longer in my inbox, so I cannot tell whether it was answered.\nNext: ask again if it is still needed, and tell ${whomToTell(origin)}.`,
        origin,
      );
      return;
    }
    let value: unknown =
      '(answered; the value itself did not reach me: I learnt the answer from my copy of the request, which keeps only that it was answered; give a responseName to keep answers)';
    if (responseName !== undefined) {
      value = await Promise.resolve(E(powers).lookup(placed(directoryOf(ask), responseName))).catch(
        (error: unknown) =>
          `(answered, but "${responseName}" could not be read: ${describeError(error)})`,
      );
    }
    await answered(ask.id, ask.recipient, ask.description, responseName, origin, value);
  };

  return { request, resume };
};
harden(makeRequestTracker);
