/**
 * The one place a turn's powers are made (docs/behaviour.md 9.6): every
 * turn — a message's, an outcome's, a wake-up's, a trigger's, the
 * heartbeat's, a helper's — is given the facet of the party it serves, and
 * holds nothing else. The HOST's facet is the agent's powers, as they have
 * always been. Another party's holds: its own directory, where the `names`
 * ops work and nothing of the HOST's exists (./peer-powers.ts); its own
 * messages; replies and mail to it, and a note to the HOST; the HOST's
 * tools the HOST shared with it (./shared-tools.ts); and code proposed,
 * requests, helpers and schedules in its own scope. What a facet does not
 * hold is not offered, not named in its prompt, and a call naming it finds
 * no such tool.
 */
import type { Env, ToolSchema } from '../../providers/types.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { NameOf } from '../mail/sender-names.js';
import type { Persona } from '../config/config.js';
import type { ToolPolicy } from '../policy/tool-policy.js';
import type { RequestTracker } from '../asks/request-tracker.js';
import type { Proposal, ProposalTracker } from '../asks/proposal-tracker.js';
import type { ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import type { Toolbox } from '../toolbox/toolbox.js';
import { TOOLBOX_NAME } from '../toolbox/toolbox.js';
import { keepNames } from '../agent-tools/tool-groups.js';
import { BUILTIN_NAMES, HOST_ONLY_NAMES } from '../agent-tools/builtin-schemas.js';
import { promptFor, type DaemonWords } from '../prompt/speak-generation.js';
import { channelPrompt, systemPrompt } from '../prompt/system-prompt.js';
import { E } from '@endo/far';
import { HOST_PARTY, partyOf, type Party } from './party.js';
import { makePeerPowers } from './peer-powers.js';
import { readSharedTools, type SharedTools } from './shared-tools.js';
import { partySchedules } from './party-schedules.js';
import type { WakeUps } from '../schedule/wake-ups.js';

/** What `mail request` is given: the tracker's ask without the facet's own part (where its answer is kept). */
type RequestAsk = Omit<Parameters<RequestTracker['request']>[0], 'directory'>;

/** What one turn holds: the powers, tools and asks of the party it serves. */
export interface Facet {
  party: Party;
  /** The guest powers the turn's built-in tools call. */
  powers: PowersRef;
  /** The dynamic tools the turn may run: all of the HOST's, or those the HOST shared with the party. */
  tools: ToolRegistry;
  /** Requests to others: to anyone for the HOST, to the party or the HOST for another. */
  requests: { request(ask: RequestAsk): Promise<Readonly<Record<string, unknown>>> };
  /** The `schedule` tool's wake-ups, in the party's scope; absent where a host gives none. */
  wakeUps?: Pick<WakeUps, 'schedule'>;
  /** Code proposed to the HOST, with endowments and result among the party's own names. */
  proposals: {
    propose(
      proposal: Proposal,
    ): Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
  };
  /** The tools offered with a request (the policy's, the toolbox past its budget). */
  offer(): ToolSchema[];
  /** The tools a helper made in this turn is granted from (./helpers/grant.ts): no toolbox, never more. */
  held(): ToolSchema[];
  /** Whether the turn holds the tool a call names (its built-in op, or a dynamic tool). */
  holds(names: readonly string[]): boolean;
  /** The system prompt: it names only what the turn holds. */
  prompt: string;
}

/**
 * What a channel's turn holds (docs/behaviour.md 11.4): a channel is a party of many members, all
 * untrusted, and its turn holds nothing of the agent's: no powers, no tool (whatever the HOST
 * shared with other parties), no ask; its one effect is its post in that channel, which the
 * channel part makes with the agent's own member handle.
 */
export interface ChannelFacet {
  party: Party & { kind: 'channel' };
  /** The tools offered: none. */
  offer(): ToolSchema[];
  /** Whether the turn holds the tool a call names: never. */
  holds(names: readonly string[]): boolean;
  /** The system prompt: it names nothing the turn does not hold. */
  prompt: string;
}

/** The facet of a channel's turn, by the channel's name: the same whatever the HOST shares. */
export const channelFacet = (persona: Persona, channel: string): ChannelFacet =>
  harden({
    party: harden({ kind: 'channel', name: channel }),
    offer: () => [],
    holds: () => false,
    prompt: channelPrompt(persona, channel),
  });
harden(channelFacet);

export interface FacetMaker {
  /** The facet of the turn about this message (the HOST's for its own, and for work that serves no message). */
  facetFor(origin: { sender: string } | undefined): Facet;
  /** For help(): which of the HOST's tools other parties hold. */
  describe(): string[];
}

export interface FacetParts {
  powers: PowersRef;
  env: Env;
  hostName: string;
  nameOf: NameOf;
  persona: Persona;
  daemon?: DaemonWords;
  policy: ToolPolicy;
  /** The dynamic tools (the toolbox's registry when there is one: it knows `toolbox`). */
  registry: ToolRegistry;
  toolbox?: Toolbox;
  /** The built-in tools in this daemon's words, before the policy. */
  builtins: readonly ToolSchema[];
  requests: Pick<RequestTracker, 'request'>;
  proposals: Pick<ProposalTracker, 'propose'>;
  wakeUps?: Pick<WakeUps, 'schedule'>;
}

/** The registry as a party sees it: only the tools the HOST shared with it (and the toolbox over them). */
const sharedRegistry = (registry: ToolRegistry, shared: (tool: string) => boolean): ToolRegistry =>
  harden({
    ...registry,
    schemas: () => registry.schemas().filter(schema => shared(schema.function.name)),
    find: (name: string) =>
      name === TOOLBOX_NAME || shared(name) ? registry.find(name) : undefined,
    offeredBy: () => registry.offeredBy().filter(({ name }) => shared(name)),
  });

const hostFacet = (parts: FacetParts, prompt: string): Facet => {
  const { policy, registry, toolbox, builtins, powers } = parts;
  return harden({
    party: HOST_PARTY,
    powers,
    tools: registry,
    requests: {
      async request(ask: RequestAsk) {
        // A request's failure comes back later as a notice: a recipient that is not there is said now.
        if (!(await E(powers).has(...ask.recipient.split('/'))))
          throw new Error(`No recipient named ${JSON.stringify(ask.recipient)}`);
        return parts.requests.request(ask);
      },
    },
    proposals: parts.proposals,
    ...(parts.wakeUps === undefined ? {} : { wakeUps: parts.wakeUps }),
    offer: () => [
      ...policy.offered(builtins),
      ...(toolbox === undefined
        ? policy.offered(registry.schemas())
        : toolbox.offer(schemas => policy.offered(schemas))),
    ],
    held: () => [...policy.offered(builtins), ...policy.offered(registry.schemas())],
    // Whatever the policy then says, a tool the agent does not hold is unknown: never asked about.
    holds: (names: readonly string[]) =>
      names.some(name => BUILTIN_NAMES.has(name) || registry.find(name) !== undefined),
    prompt,
  });
};

const peerFacet = (
  parts: FacetParts,
  shared: SharedTools,
  party: Party & { kind: 'peer' },
  prompt: string,
): Facet => {
  const { policy, registry, toolbox, builtins } = parts;
  const isShared = (tool: string) => shared.sharedWith(party.name, tool);
  const tools = sharedRegistry(registry, isShared);
  const powers = makePeerPowers({
    powers: parts.powers,
    name: party.name,
    hostName: parts.hostName,
    nameOf: parts.nameOf,
  });
  const directory = powers.directory();
  // What only the HOST's turns hold is taken away as each built-in's record says (its `heldBy`):
  // a tool of its own, or an op of a group (a group left with none goes too).
  const partyHolds = (name: string) => !HOST_ONLY_NAMES.has(name);
  const ownBuiltins = () => keepNames(policy.offered(builtins), partyHolds);
  const sharedSchemas = (schemas: readonly ToolSchema[]) =>
    policy.offered(schemas).filter(schema => isShared(schema.function.name));
  return harden({
    party,
    powers: powers as unknown as PowersRef,
    tools,
    requests: {
      // A recipient other than the party and the HOST is said at once, as a rejection.
      request: (ask: RequestAsk) =>
        Promise.resolve().then(() =>
          parts.requests.request({ ...ask, recipient: powers.recipient(ask.recipient), directory }),
        ),
    },
    proposals: {
      // An endowment is one of the party's names, and one that is not there is said now, as the HOST's turn hears it from the daemon.
      async propose(proposal: Proposal) {
        const paths = proposal.petNamePaths.map(path =>
          typeof path === 'string' ? path.split('/') : path,
        );
        const there = await Promise.all(paths.map(path => powers.has(...path)));
        const missing = paths.filter((_, index) => there[index] !== true);
        if (missing.length > 0)
          throw new Error(
            `Unknown pet name${missing.length === 1 ? '' : 's'}: ${missing.map(path => JSON.stringify(path.join('/'))).join(', ')}`,
          );
        return parts.proposals.propose({ ...proposal, directory });
      },
    },
    ...(parts.wakeUps === undefined
      ? {}
      : { wakeUps: partySchedules(parts.wakeUps, party.name, directory) }),
    offer: () => [
      ...ownBuiltins(),
      ...(toolbox === undefined ? sharedSchemas(registry.schemas()) : toolbox.offer(sharedSchemas)),
    ],
    held: () => [...ownBuiltins(), ...sharedSchemas(registry.schemas())],
    holds: (names: readonly string[]) =>
      names.every(partyHolds) &&
      names.some(name => BUILTIN_NAMES.has(name) || tools.find(name) !== undefined),
    prompt,
  });
};

export const makeFacetMaker = (parts: FacetParts): FacetMaker => {
  const shared = readSharedTools(parts.env);
  const prompts = {
    host: promptFor(systemPrompt(parts.persona, 'host'), parts.daemon),
    peer: promptFor(systemPrompt(parts.persona, 'peer'), parts.daemon),
  };
  // The HOST's facet holds nothing of one turn (its offer and holdings read the policy and tools
  // as they are when asked): made once, not again for every turn.
  const host = hostFacet(parts, prompts.host);
  return harden({
    facetFor: origin => {
      const party = partyOf(origin, parts.hostName);
      return party.kind === 'host' ? host : peerFacet(parts, shared, party, prompts.peer);
    },
    describe: () => shared.describe(),
  });
};
harden(makeFacetMaker);
