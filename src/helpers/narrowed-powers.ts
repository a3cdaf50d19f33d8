/**
 * The guest powers as a helper sees them (behaviour 7.9): only the pet-name
 * paths it was given, and everything under them; the top of its directory
 * lists those names and nothing else. Each call on a path it was given goes
 * to the agent's own powers; any other path is refused, named, and every
 * mail power (send, reply, request, evaluate…) refuses: a helper hands
 * back its result to its parent and mails no one.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';

type NameOrPath = string | string[];

const asPath = (nameOrPath: NameOrPath): string[] =>
  typeof nameOrPath === 'string' ? nameOrPath.split('/') : nameOrPath;

const noMail = (method: string) => (): never => {
  throw new Error(`${method}: a helper mails no one; it hands back its result`);
};

export const narrowedPowers = (powers: PowersRef, given: readonly (readonly string[])[]) => {
  const shown = given.map(path => path.join('/'));
  // A grant longer than the path is not within it: the path has no part where the grant's next is.
  const within = (path: readonly string[]) =>
    given.some(grant => grant.every((part, index) => path[index] === part));
  const check = (path: readonly string[]): string[] => {
    if (!within(path))
      throw new Error(
        `"${path.join('/')}" is not among the pet names this helper was given (${shown.length === 0 ? 'none' : shown.join(', ')})`,
      );
    return [...path];
  };
  const parent = E(powers);
  return harden({
    help: (methodName?: string) =>
      methodName === undefined
        ? `A helper's pet names: ${shown.length === 0 ? 'none' : shown.join(', ')}.`
        : parent.help(methodName),
    has: (...path: string[]) => (within(path) ? parent.has(...path) : false),
    identify: (...path: string[]) => parent.identify(...check(path)),
    // The top of a helper's directory is what it was given (a path given whole shows as written).
    list: (...path: string[]) => (path.length === 0 ? [...shown] : parent.list(...check(path))),
    listIdentifiers: (...path: string[]) => parent.listIdentifiers(...check(path)),
    lookup: (nameOrPath: NameOrPath) => parent.lookup(check(asPath(nameOrPath))),
    reverseIdentify: noMail('reverseIdentify'),
    remove: (...path: string[]) => parent.remove(...check(path)),
    move: (from: string[], to: string[]) => parent.move(check(from), check(to)),
    copy: (from: string[], to: string[]) => parent.copy(check(from), check(to)),
    makeDirectory: (nameOrPath: NameOrPath) => parent.makeDirectory(check(asPath(nameOrPath))),
    storeValue: (value: unknown, nameOrPath: NameOrPath) =>
      parent.storeValue(value, check(asPath(nameOrPath))),
    listMessages: noMail('listMessages'),
    followMessages: noMail('followMessages'),
    send: noMail('send'),
    reply: noMail('reply'),
    dismiss: noMail('dismiss'),
    adopt: noMail('adopt'),
    request: noMail('request'),
    resolve: noMail('resolve'),
    reject: noMail('reject'),
    evaluate: noMail('evaluate'),
  });
};
harden(narrowedPowers);
