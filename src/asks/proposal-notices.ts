/**
 * What the model is told when an eval-proposal ends: GRANTED with a preview
 * of the result, REJECTED with the host's reason, and after a restart what
 * the proposal's own copy could still tell; when it is gone, NOT RUN when the
 * agent knows it did not run, else UNKNOWN (a grant whose outcome was lost).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { cut } from '../mail/message-record.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { whomToTell, type Origin } from '../mail/origin.js';
import type { Settlement, StoredAsk } from './pending-asks.js';
import { placed, storedProposal } from './stored-proposal.js';
import { describeError } from '../../providers/describe-error.js';

export const SOURCE_PREVIEW_CHARS = 100;
harden(SOURCE_PREVIEW_CHARS);
export const RESULT_PREVIEW_CHARS = 2_000;
harden(RESULT_PREVIEW_CHARS);

export const grantedText = (
  proposalId: string,
  preview: string,
  resultName: string,
  rendered: string,
  origin: Origin | undefined,
  /** Who ran it: the host (f0a46042a), or the daemon once the host agreed (the newest). */
  by = 'the host ran',
): string =>
  `GRANTED: ${by} your proposal ${proposalId} (${preview}). Result, kept as "${resultName}": ${rendered}\nNext: tell ${whomToTell(origin)} what came out.`;
harden(grantedText);

export const rejectedText = (
  proposalId: string,
  preview: string,
  reason: string,
  origin: Origin | undefined,
  host = 'the host',
): string =>
  `REJECTED: ${host} did not run your proposal ${proposalId} (${preview}). Reason: ${reason}\nNext: tell ${whomToTell(origin)}; change the code and propose again only if the reason invites it.`;
harden(rejectedText);

/** The notice for a proposal that ended while the agent restarted and whose copy is gone. */
const lostProposalText = (
  proposalId: string,
  preview: string,
  origin: Origin | undefined,
): string =>
  `UNKNOWN: I restarted while your proposal ${proposalId} (${preview}) waited for the host, and I can no longer tell whether it ran.\nNext: look for its result name with list, propose again only if it is still needed, and tell ${whomToTell(origin)}.`;

/**
 * The notice for a proposal still waiting for the host at a restart whose copy did not come
 * back, when the agent knows it did not run (`why`): the restart ended it, and the host can no
 * longer grant it.
 */
export const notRunProposalText = (
  proposalId: string,
  preview: string,
  why: string,
  origin: Origin | undefined,
): string =>
  `NOT RUN: your proposal ${proposalId} (${preview}) was still waiting for the host when I restarted, and the restart ended it: ${why}, and the host can no longer grant it.\nNext: propose it again only if it is still needed, and tell ${whomToTell(origin)}.`;
harden(notRunProposalText);

/**
 * Whether a value is kept under the path: asked with `has`, which answers no where a lookup would
 * be refused (each refusal a raw CapTP exception in the agent's log); a refusal still means no.
 */
const kept = (powers: PowersRef, path: string | string[]): Promise<boolean> =>
  Promise.resolve(E(powers).has(...(typeof path === 'string' ? [path] : path))).then(
    found => found === true,
    () => false,
  );

/** The notice for a proposal made before a restart, once its own copy says how it ended. */
export const resumedProposalNotice = async (
  ask: StoredAsk,
  settlement: Settlement,
  powers: PowersRef,
): Promise<{ text: string; origin: Origin | undefined }> => {
  const proposal = storedProposal(ask);
  const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
  const origin = proposal.origin;
  // Granted as the agent stopped: whether it ran is not known.
  if (settlement === 'interrupted')
    return { text: lostProposalText(ask.id, preview, origin), origin };
  if (settlement === 'lost') {
    // No grant had come while the agent ran. One while it was stopped would have left its result
    // under its name: none there, it did not run; one there may be an earlier proposal's.
    const resultThere =
      proposal.resultName !== '' &&
      (await kept(powers, placed(proposal.directory, proposal.resultName)));
    return {
      text: resultThere
        ? lostProposalText(ask.id, preview, origin)
        : notRunProposalText(
            ask.id,
            preview,
            proposal.resultName === ''
              ? 'it was not granted before I stopped'
              : `it was not granted (nothing is kept as "${proposal.resultName}")`,
            origin,
          ),
      origin,
    };
  }
  if (settlement === 'rejected') {
    return {
      text: `REJECTED: the host did not run your proposal ${ask.id} (${preview}); its reason did not reach me: I learnt the answer from my copy of the proposal, which keeps only that it was rejected.\nNext: tell ${whomToTell(origin)}.`,
      origin,
    };
  }
  const result = await Promise.resolve(
    E(powers).lookup(placed(proposal.directory, proposal.resultName)),
  ).then(
    value => renderForModel(value),
    (error: unknown) =>
      `(it ran, but "${proposal.resultName}" could not be read: ${describeError(error)})`,
  );
  return {
    text: `GRANTED: the host ran your proposal ${ask.id} (${preview}) while I restarted. Result, kept as "${proposal.resultName}": ${cut(result, RESULT_PREVIEW_CHARS)}\nNext: tell ${whomToTell(origin)} what came out.`,
    origin,
  };
};
harden(resumedProposalNotice);
