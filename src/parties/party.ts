/**
 * The party a turn serves (docs/behaviour.md 9.6): the HOST, whose turns
 * hold the agent's powers, or another party, known by the name its mail is
 * shown under, whose turns hold only the facet made for it (./facets.ts).
 * A leaf: every folder may import it.
 */

/** Whom a turn serves: the HOST, another party by its mail, or a channel (many members, all untrusted). */
export type Party =
  | Readonly<{ kind: 'host' }>
  | Readonly<{ kind: 'peer'; name: string }>
  | Readonly<{ kind: 'channel'; name: string }>;

export const HOST_PARTY: Party = harden({ kind: 'host' });
harden(HOST_PARTY);

/** The party of a turn about this message: the HOST for its own and for the agent's own work (no message). */
export const partyOf = (
  origin: { sender: string } | undefined,
  hostName: string,
): Exclude<Party, { kind: 'channel' }> =>
  origin === undefined || origin.sender === hostName
    ? HOST_PARTY
    : harden({ kind: 'peer', name: origin.sender });
harden(partyOf);

/** Where a party's own names are kept in the guest's directory: one directory per party under this. */
export const PARTIES_DIRECTORY = 'agent-parties';
harden(PARTIES_DIRECTORY);

/**
 * The path of a party's own directory: its name made a pet name (lower
 * case, each run of other characters a dash), so `unnamed 9a7fd267` is
 * `unnamed-9a7fd267`.
 */
export const partyDirectory = (name: string): readonly string[] => {
  const petName =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'party';
  return harden([PARTIES_DIRECTORY, petName]);
};
harden(partyDirectory);
