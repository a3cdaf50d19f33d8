/**
 * The two parties of the sequence (the host and one guest it provides), their
 * special names and ids, and how a message record is reduced to what matters:
 * who sent it to whom, by role, never by id.
 */
import { E } from '@endo/far';
import { detectGeneration, type Generation } from '../src/daemon/generation.js';
import { idFromLocator } from '../src/daemon/daemon-adapter.js';
import { plain, type Plain } from './outcome.js';

export type Far = Record<string, (...args: unknown[]) => Promise<unknown>>;
export const far = (target: unknown): Far => E(target as Far);
harden(far);

export const GUEST_NAME = 'conf-guest';
harden(GUEST_NAME);
/** The guest's powers, named by the host (provideGuest on a used name gives the handle). */
const GUEST_POWERS_NAME = 'conf-guest-powers';

interface Names {
  host: string;
  self: string;
  main: string;
  none: string;
  pins: string;
}

const OLD: Names = { host: 'HOST', self: 'SELF', main: 'MAIN', none: 'NONE', pins: 'PINS' };
const NEWEST: Names = {
  host: '@host',
  self: '@self',
  main: '@main',
  none: '@none',
  pins: '@pins',
};

export interface Parties {
  generation: Generation;
  names: Names;
  host: unknown;
  guest: unknown;
  /** Formula ids by role, to tell senders apart. */
  roles: Map<string, string>;
}

const idOf = (value: unknown): string | undefined => idFromLocator(value);

export const meet = async (host: unknown): Promise<Parties> => {
  const { generation } = await detectGeneration(host);
  const names = generation === 'newest' ? NEWEST : OLD;
  const known = (await far(host).has!(GUEST_POWERS_NAME)) as boolean;
  const guest = known
    ? await far(host).lookup!(GUEST_POWERS_NAME)
    : await far(host).provideGuest!(GUEST_NAME, { agentName: GUEST_POWERS_NAME });
  const roles = new Map<string, string>();
  const hostId = idOf(await far(host).identify!(names.self));
  const guestId = idOf(await far(guest).identify!(names.self));
  const guestHandleOnHost = idOf(await far(host).identify!(GUEST_NAME));
  if (hostId !== undefined) roles.set(hostId, 'host');
  if (guestId !== undefined) roles.set(guestId, 'guest');
  if (guestHandleOnHost !== undefined && !roles.has(guestHandleOnHost))
    roles.set(guestHandleOnHost, 'guest');
  return { generation, names, host, guest, roles };
};
harden(meet);

const role = (parties: Parties, value: unknown): Plain => {
  const id = idOf(value);
  return id === undefined ? plain(value) : (parties.roles.get(id) ?? '<other>');
};

/** A message record by role and content (a field set to undefined shows as `<undefined>`). */
export const reduceMessage = (parties: Parties, record: unknown): Plain => {
  const message = record as Record<string, unknown>;
  const reduced: Record<string, Plain> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === 'from' || key === 'to') reduced[key] = role(parties, value);
    else if (
      key === 'date' ||
      key === 'messageId' ||
      key === 'replyTo' ||
      key === 'valueId' ||
      key === 'timestamp'
    )
      reduced[key] = value === undefined ? '<undefined>' : '<present>';
    else reduced[key] = plain(value);
  }
  return reduced;
};
harden(reduceMessage);

export const listMessages = async (parties: Parties, who: unknown): Promise<Plain[]> => {
  const messages = (await far(who).listMessages!()) as unknown[];
  return messages.map(message => reduceMessage(parties, message));
};
harden(listMessages);

/** Waits until `who` has a message matching `pred` (bounded), and returns it. */
export const messageWhere = async (
  who: unknown,
  pred: (message: Record<string, unknown>) => boolean,
  tries = 100,
): Promise<Record<string, unknown>> => {
  for (let i = 0; i < tries; i += 1) {
    const messages = (await far(who).listMessages!()) as Record<string, unknown>[];
    const found = messages.find(pred);
    if (found !== undefined) return found;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw Error('no such message arrived');
};
harden(messageWhere);

export const lastNumber = async (who: unknown): Promise<bigint> => {
  const messages = (await far(who).listMessages!()) as { number: bigint }[];
  const last = messages.at(-1);
  if (last === undefined) throw Error('no messages');
  return last.number;
};
harden(lastNumber);
