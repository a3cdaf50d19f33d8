/**
 * An outcome named in words (docs/behaviour.md 9.11: words keep their label):
 * what it is the outcome of, from its ask's id (`pending-asks.ts` makes each
 * from a prefix: r, a, p; a helper's is h), so a label reads "the outcome of
 * approval request a1", not "the outcome a1".
 */
const KINDS: Readonly<Record<string, string>> = harden({
  a: 'approval request',
  p: 'eval-proposal',
  r: 'request',
  h: 'helper',
});

/** "the outcome of approval request a1, eval-proposal p2"; an id of no kind known is named as it is. */
export const outcomeLabel = (ids: readonly string[]): string =>
  `the outcome of ${ids
    .map(id => {
      const kind = KINDS[id.replace(/\d+$/, '')];
      return kind === undefined ? id : `${kind} ${id}`;
    })
    .join(', ')}`;
harden(outcomeLabel);
