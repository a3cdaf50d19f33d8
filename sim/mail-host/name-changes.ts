/**
 * What `followNameChanges` answers, per daemon generation: at f0a46042a an
 * iterator reference over `{ add, value }` / `{ remove }` changes; in the
 * newest daemon an exo-stream reader whose additions also carry the formula's
 * `type` (its directory.js adds it when the formula's type is known).
 */
import { makeIteratorRef } from './iterator-ref.js';
import { makeStreamReader } from './stream-reader.js';
import type { FormulaTable } from './formula-table.js';
import type { DaemonProfile } from './profile.js';
import type { Subscription } from './topic.js';
import type { NameChange } from './types.js';

export const nameChangesPresenter =
  (profile: DaemonProfile, table: Pick<FormulaTable, 'typeOf'>) =>
  (changes: Subscription<NameChange>): unknown => {
    if (profile !== 'newest') return makeIteratorRef(changes);
    return makeStreamReader(changes, change => {
      if (!('add' in change)) return change;
      const type = table.typeOf(`${change.value.number}:${change.value.node}`);
      return type === undefined ? change : harden({ ...change, type });
    });
  };
harden(nameChangesPresenter);
