/** The exo other code reaches a directory through, with the daemon's EndoDirectory guard. */
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { makeGuardedExo } from './guarded-exo.js';
import type { DirectoryNode, PresentNameChanges } from './directory.js';
import type { NameOrPath } from './types.js';

const NameShape = M.string();
const NamePathShape = M.arrayOf(NameShape);
const NameOrPathShape = M.or(NameShape, NamePathShape);

const DirectoryInterface: InterfaceGuard = M.interface('EndoDirectory', {
  help: M.call().optional(M.string()).returns(M.string()),
  has: M.call().rest(NamePathShape).returns(M.promise()),
  identify: M.call().rest(NamePathShape).returns(M.promise()),
  locate: M.call().rest(NamePathShape).returns(M.promise()),
  list: M.call().rest(NamePathShape).returns(M.promise()),
  listIdentifiers: M.call().rest(NamePathShape).returns(M.promise()),
  followNameChanges: M.call().returns(M.remotable()),
  lookup: M.call(NameOrPathShape).returns(M.promise()),
  reverseLookup: M.call(M.any()).returns(M.promise()),
  write: M.call(NameOrPathShape, M.string()).returns(M.promise()),
  remove: M.call().rest(NamePathShape).returns(M.promise()),
  move: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  copy: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  makeDirectory: M.call(NameOrPathShape).returns(M.promise()),
});

const directoryHelp = `EndoDirectory - a namespace of pet names.
Methods: has, identify, locate, list, listIdentifiers, followNameChanges, lookup,
reverseLookup, write, remove, move, copy, makeDirectory.`;

export const makeDirectoryExo = (node: DirectoryNode, presentChanges: PresentNameChanges) =>
  makeGuardedExo('EndoDirectory', DirectoryInterface, {
    help: (methodName?: string) =>
      methodName ? `No documentation available for method "${methodName}".` : directoryHelp,
    has: (...path: string[]) => node.has(...path),
    identify: (...path: string[]) => node.identify(...path),
    locate: (...path: string[]) => node.locate(...path),
    list: (...path: string[]) => node.list(...path),
    listIdentifiers: (...path: string[]) => node.listIdentifiers(...path),
    followNameChanges: () => presentChanges(node.followNameChanges()),
    lookup: (nameOrPath: NameOrPath) => node.lookup(nameOrPath),
    reverseLookup: (value: unknown) => node.reverseLookup(value),
    write: (nameOrPath: NameOrPath, id: string) => node.write(nameOrPath, id),
    remove: (...path: string[]) => node.remove(...path),
    move: (fromPath: string[], toPath: string[]) => node.move(fromPath, toPath),
    copy: (fromPath: string[], toPath: string[]) => node.copy(fromPath, toPath),
    makeDirectory: (nameOrPath: NameOrPath) => node.makeDirectory(nameOrPath),
  });
harden(makeDirectoryExo);
