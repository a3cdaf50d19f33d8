/**
 * `/tools` as npm start shows the agent's tools() (src/toolbox/tools-by-source.ts): each line as
 * it comes, but a source with many tools behind the toolbox (the sample toolbox's 120) in one
 * line, its count and how to see them, for its 120 names buried every other line (issue 45,
 * trial 12); `/tools toolbox` names them.
 */
import { readDeferredLine } from '../../src/toolbox/tools-by-source.js';
import { TOOLBOX_NAME } from '../../src/toolbox/toolbox.js';

/** Up to this many names behind the toolbox are shown on their source's line (about a row of them). */
const NAMED_AT_MOST = 8;

/** `/tools`: the listing, a long line of deferred names made one of their count. */
export const countedListing = (listing: string): string =>
  listing
    .split('\n')
    .map(line => {
      const deferred = readDeferredLine(line);
      return deferred === undefined || deferred.names.length <= NAMED_AT_MOST
        ? line
        : `${deferred.head}: /tools ${TOOLBOX_NAME} names them`;
    })
    .join('\n');
harden(countedListing);

/** `/tools toolbox`: the lines naming the tools behind the toolbox, each whole. */
export const deferredListing = (listing: string, guestName: string): string => {
  const lines = listing.split('\n').filter(line => readDeferredLine(line) !== undefined);
  return lines.length > 0
    ? lines.join('\n')
    : `No tool of ${guestName}'s waits behind ${TOOLBOX_NAME}: /tools names every one.`;
};
harden(deferredListing);
