/**
 * One incarnation of a caplet: its cancellation context, and `make` run on
 * its worker's connection with the powers and context made remote.
 */
import { makeCapletContext } from './context.js';
import type { CapletContextKit } from './context.js';
import type { FormulaTable } from './formula-table.js';
import type { CapletHandle, FormulaId, MakeFn } from './types.js';
import type { Loopback } from './worker-connections.js';

export interface Incarnation {
  readonly context: CapletContextKit;
  readonly value: Promise<unknown>;
  readonly cancelled: Promise<void>;
  /** Set once `make` has returned, for synchronous access. */
  made?: { value: unknown };
}

export interface CapletRecord {
  readonly id: FormulaId;
  readonly load: () => Promise<MakeFn>;
  readonly powersId: FormulaId;
  /** The env `make` is given: as passed, then as the formula reads back after a restart. */
  env: Record<string, string>;
  /** The env as the daemon stored it (envAsStored). */
  readonly storedEnv: Record<string, string>;
  readonly workerId: FormulaId;
  /** running: has a live incarnation; dormant: revived when provided; collected: gone. */
  state: 'running' | 'cancelled' | 'dormant' | 'collected';
  current: Incarnation | undefined;
}

export const incarnate = (
  record: CapletRecord,
  table: FormulaTable,
  connectionFor: (workerId: FormulaId) => Loopback,
  providePowers: (id: FormulaId) => Promise<unknown> = id => table.provide(id),
): Incarnation => {
  const context = makeCapletContext(record.id);
  const value = (async () => {
    const make = await record.load();
    const loop = connectionFor(record.workerId);
    const powers = loop.makeFar(providePowers(record.powersId));
    // The caplet may never await its powers; a failure must not go unhandled here.
    powers.catch(() => {});
    const remoteContext = await loop.makeFar(context.far);
    const made = await make(powers, remoteContext, harden({ env: harden({ ...record.env }) }));
    const seen = await loop.makeNear(made);
    table.remember(seen, record.id);
    return seen;
  })();
  const cancelled = context.cancelled.then(
    () => undefined,
    () => undefined,
  );
  const incarnation: Incarnation = { context, value, cancelled };
  value.then(
    made => {
      incarnation.made = { value: made };
    },
    () => {},
  );
  return incarnation;
};
harden(incarnate);

/** What the tests hold of a running caplet. */
export const capletHandle = (
  record: CapletRecord,
  incarnation: Incarnation,
  value: unknown,
  cancel: (reason?: unknown) => Promise<void>,
): CapletHandle =>
  harden({
    id: record.id,
    value,
    cancel,
    cancelled: incarnation.cancelled,
  });
harden(capletHandle);
