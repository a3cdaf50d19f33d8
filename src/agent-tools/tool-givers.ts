/**
 * Who gave each tool the model adopted into tools/ (behaviour 9.8): kept in
 * the agent's own store under one name the tools cannot reach
 * (src/policy/store-boundary.ts), as a versioned JSON string
 * `{"version":1,"given":[{"petName","id","from","order"}]}`. An entry of
 * tools/ without a record, or whose formula id is no longer the one
 * adopted (the HOST put another there), is the HOST's. The order decides
 * name clashes: the HOST's tools first, then adopted ones, oldest first, so
 * a tool adopted later never takes a name already offered. A record that
 * does not read (damaged, or a newer version's) is left as it is.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { describeError } from '../../providers/describe-error.js';
import { TOOL_GIVERS_NAME } from '../daemon/own-names.js';

const VERSION = 1;

interface Given {
  petName: string;
  id: string;
  /** Whom it came from: the sender's name when it was adopted. */
  from: string;
  order: number;
}

export interface ToolGivers {
  /** Who gave the entry under this pet name with this formula id, if it was adopted from someone. */
  giverOf(petName: string, id: string): { from: string; order: number } | undefined;
  /** Records an adoption (and saves the record). */
  adopted(petName: string, id: string, from: string): Promise<void>;
}

const readGiven = (stored: unknown): Given[] => {
  if (typeof stored !== 'string') throw Error('it is not a string');
  const parsed = JSON.parse(stored) as { version?: unknown; given?: unknown };
  if (parsed.version !== VERSION || !Array.isArray(parsed.given))
    throw Error(`it is not version ${VERSION}`);
  return (parsed.given as Partial<Given>[]).filter(
    (each): each is Given =>
      typeof each.petName === 'string' &&
      typeof each.id === 'string' &&
      typeof each.from === 'string' &&
      typeof each.order === 'number',
  );
};

export const loadToolGivers = async (powers: PowersRef, log: Log): Promise<ToolGivers> => {
  let given: Given[] = [];
  // A record this version cannot read is never overwritten: this run keeps its adoptions in memory.
  let unread = false;
  try {
    if (await E(powers).has(TOOL_GIVERS_NAME))
      given = readGiven(await E(powers).lookup(TOOL_GIVERS_NAME));
  } catch (error) {
    unread = true;
    log(
      `${TOOL_GIVERS_NAME} did not read (${describeError(error)}): every tool in tools/ counts as the HOST's, and it is left as it is`,
    );
  }
  return {
    giverOf(petName, id) {
      const found = given.find(each => each.petName === petName && each.id === id);
      return found === undefined ? undefined : { from: found.from, order: found.order };
    },
    async adopted(petName, id, from) {
      const order = given.reduce((most, each) => Math.max(most, each.order), 0) + 1;
      given = [...given.filter(each => each.petName !== petName), { petName, id, from, order }];
      if (unread) return;
      await E(powers).storeValue(JSON.stringify({ version: VERSION, given }), TOOL_GIVERS_NAME);
    },
  };
};
harden(loadToolGivers);
