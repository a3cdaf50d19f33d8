/**
 * Which agents in the host's inventory this project's setup made, so that it
 * lives beside other setups (upstream's packages/lal/setup.js names its
 * manager `setup-lal` with powers `profile-for-lal` and result
 * `controller-for-lal`, and its form makes guests by the submitted name):
 * a name another made is never reused, pinned, restarted or handed tools.
 *
 * The marker: the host's value `lal-fae-agents`, a JSON record of each
 * controller this setup started, by its name, with its formula id (one value,
 * not a directory: at f0a46042a a directory just made can be collected before
 * it is named, tools-directory.ts). A controller is ours when the marker names
 * the very formula the host's name does (a controller replaced by someone
 * else is not). An agent of ours from before the marker is known by the
 * `tools/` its agent makes in its guest at start (upstream's guests have
 * none), our agent manager by the `host-agent` it was given; either is marked
 * when setup next meets it.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { SetupGuest, SetupHostRef } from './setup-host.js';
import { guestNamesFor, type GuestNames } from './read-setup-env.js';

/** The manager guest's name for the host's powers (upstream's too). */
export const HOST_AGENT = 'host-agent';
harden(HOST_AGENT);

const MARKER_NAME = 'lal-fae-agents';
const MOST_TRIED = 50;

type Ownership = 'free' | 'ours' | 'another';

/**
 * Whether the guest's powers bear a mark this setup's caplets leave: the agent's `tools/`, or
 * the host's powers the agent manager was given (`host-agent`; upstream's manager has other powers).
 */
const bearsOurMark = async (host: SetupHostRef, agentName: string): Promise<boolean> => {
  try {
    const guest = (await E(host).lookup(agentName)) as SetupGuest;
    const [tools, hostAgent] = await Promise.all([E(guest).has('tools'), E(guest).has(HOST_AGENT)]);
    return tools || hostAgent;
  } catch {
    return false;
  }
};

/** Whose the names for this guest are: nobody's yet, this setup's, or another's. */
const ownershipOf = async (host: SetupHostRef, names: GuestNames): Promise<Ownership> => {
  const { guestName, agentName, controllerName } = names;
  const [guest, agent, controller] = await Promise.all(
    [guestName, agentName, controllerName].map(name => E(host).has(name)),
  );
  if (!guest && !agent && !controller) return 'free';
  if (controller) {
    const marked = (await readMarker(host))[controllerName];
    if (marked !== undefined)
      return marked === (await E(host).identify(controllerName)) ? 'ours' : 'another';
  }
  // Before the marker: our agent made tools/ in its guest when it started; our manager holds host-agent.
  if (guest && agent && (await bearsOurMark(host, agentName))) return 'ours';
  return 'another';
};

/**
 * The names to provision under: the ones asked for when they are free or
 * ours, else the first of `<name>-2`, `<name>-3`… that is, and why.
 */
export const chooseNames = async (
  host: SetupHostRef,
  asked: GuestNames,
  variable: string,
): Promise<{ names: GuestNames; moved?: string }> => {
  if ((await ownershipOf(host, asked)) !== 'another') return { names: asked };
  for (let index = 2; index <= MOST_TRIED; index += 1) {
    const names = guestNamesFor(`${asked.guestName}-${index}`, variable);
    if ((await ownershipOf(host, names)) !== 'another')
      return {
        names,
        moved: `"${asked.guestName}" (or "${asked.agentName}", "${asked.controllerName}") was made by someone else (another setup, such as upstream Lal's), so it is left alone; this agent is "${names.guestName}"`,
      };
  }
  throw makeError(
    X`${q(asked.guestName)} and ${q(`${asked.guestName}-2`)} … ${q(`${asked.guestName}-${MOST_TRIED}`)} are all taken by others: choose another name`,
  );
};
harden(chooseNames);

/** Controller name → formula id, for every controller this setup started; empty when unreadable. */
const readMarker = async (host: SetupHostRef): Promise<Record<string, string>> => {
  try {
    if (!(await E(host).has(MARKER_NAME))) return {};
    const stored: unknown = await E(host).lookup(MARKER_NAME);
    const parsed: unknown = typeof stored === 'string' ? JSON.parse(stored) : undefined;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
};

/** Records that this setup started the controller under `controllerName` (re-runnable). */
export const markOurs = async (host: SetupHostRef, controllerName: string): Promise<void> => {
  const id = await E(host).identify(controllerName);
  if (id === undefined) return;
  const marker = await readMarker(host);
  if (marker[controllerName] === id) return;
  await E(host).storeValue(JSON.stringify({ ...marker, [controllerName]: id }), MARKER_NAME);
};
harden(markOurs);
