/** The daemon's rules for a package's parts, checked before any name is resolved. */
import { quote } from './pet-name.js';

/** Edge names a message may not use: the daemon reserves them for message fields. */
const reservedEdgeNames = new Set([
  'FROM',
  'TO',
  'DATE',
  'TYPE',
  'MESSAGE',
  'REPLY',
  'DESCRIPTION',
  'STRINGS',
  'PROMISE',
  'RESOLVER',
]);

export const assertUniqueEdgeNames = (edgeNames: readonly string[]) => {
  const seen = new Set<string>();
  for (const edgeName of edgeNames) {
    if (reservedEdgeNames.has(edgeName)) throw Error(`Message name ${quote(edgeName)} is reserved`);
    if (seen.has(edgeName)) throw Error(`Message name ${quote(edgeName)} is duplicated`);
    seen.add(edgeName);
  }
};
harden(assertUniqueEdgeNames);

export const assertPackageShape = (
  strings: readonly string[],
  edgeNames: readonly string[],
  petNames: readonly unknown[],
) => {
  if (petNames.length !== edgeNames.length) {
    throw Error(
      `Message must have one edge name (${edgeNames.length}) for every pet name (${petNames.length})`,
    );
  }
  if (strings.length < petNames.length) {
    throw Error('Message must have one string before every value delivered');
  }
};
harden(assertPackageShape);
