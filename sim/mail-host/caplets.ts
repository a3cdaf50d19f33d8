/**
 * Runs caplets as the daemon's workers do: each worker is one CapTP loopback,
 * so `powers` arrives as a promise for a remote presence and `context` as a
 * remote object; `make`'s result comes back through the same connection.
 * Caplets are cancelled when their formula is collected; after a restart they
 * are made again when provided (a look-up, or the daemon's revival of PINS).
 */
import { mustMatch, M } from '@endo/patterns';
import {
  capletHandle,
  incarnate,
  type CapletRecord,
  type Incarnation,
} from './caplet-incarnation.js';
import { makeWorkerConnections, type WorkerConnection } from './worker-connections.js';
import type { FormulaTable } from './formula-table.js';
import { envAsStored } from './formula-strings.js';
import type { DaemonProfile } from './profile.js';
import type { CapletHandle, FormulaId, MakeFn } from './types.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { WorkerConnection } from './worker-connections.js';

const EnvShape = M.recordOf(M.string(), M.string());

/**
 * Why a worker ends when a formula it was handed is collected, as the daemon
 * says it (residence.js, disconnectRetainersHolding, at f0a46042a and newest).
 */
const unreachable = (type: string) =>
  harden(
    Error(
      `Formula ${JSON.stringify(type)} became unreachable by any pet name path and was collected`,
    ),
  );

const running = (
  records: Map<FormulaId, CapletRecord>,
  matches: (record: CapletRecord) => boolean,
) => [...records.values()].filter(record => record.state === 'running' && matches(record));

/** Ends a caplet's running incarnation; it is revived when next provided, unless collected. */
const cancelRecord = async (
  record: CapletRecord,
  reason?: unknown,
  nextState: CapletRecord['state'] = 'cancelled',
) => {
  const incarnation = record.current;
  record.state = nextState;
  record.current = undefined;
  if (incarnation) await incarnation.context.cancel(reason ?? harden(Error('Cancelled')));
};

/** `providePowers`: the powers a caplet is handed, the formula's value unless the daemon's parts say otherwise. */
export const makeCapletRunner = (
  table: FormulaTable,
  profile: DaemonProfile,
  connection: WorkerConnection = 'captp',
  providePowers: (id: FormulaId) => Promise<unknown> = id => table.provide(id),
) => {
  const records = new Map<FormulaId, CapletRecord>();
  const { formulateWorker, connectionFor, workersHolding, drop, dropAll } = makeWorkerConnections(
    table,
    connection,
  );

  const handleFor = (
    record: CapletRecord,
    incarnation: Incarnation,
    value: unknown,
  ): CapletHandle =>
    capletHandle(record, incarnation, value, (reason?: unknown) => cancelRecord(record, reason));

  const revive = (record: CapletRecord): Incarnation => {
    if (record.current) return record.current;
    // A cancelled caplet comes back when something provides it, as a formula does in the daemon.
    if (record.state === 'collected')
      throw Error(`No formula exists for id ${JSON.stringify(record.id)}`);
    record.current = incarnate(record, table, connectionFor, providePowers);
    record.state = 'running';
    return record.current;
  };

  /** Formulates and starts a caplet; resolves once `make` has returned. */
  const formulateCaplet = async (options: {
    load: () => Promise<MakeFn>;
    powersId: FormulaId;
    env: unknown;
    workerId?: FormulaId;
    beforeStart?: (id: FormulaId) => Promise<void>;
  }): Promise<CapletHandle> => {
    const env = options.env ?? {};
    mustMatch(env, EnvShape, 'env');
    const record: CapletRecord = {
      id: table.mint(),
      load: options.load,
      powersId: options.powersId,
      env,
      storedEnv: envAsStored(profile, env),
      workerId: options.workerId ?? formulateWorker(),
      state: 'dormant',
      current: undefined,
    };
    table.register(record.id, { type: 'make-unconfined', provide: () => revive(record).value });
    records.set(record.id, record);
    await options.beforeStart?.(record.id);
    const incarnation = revive(record);
    return handleFor(record, incarnation, await incarnation.value);
  };

  /** The handle of the current incarnation (reviving a dormant caplet). */
  const current = async (id: FormulaId): Promise<CapletHandle> => {
    const record = records.get(id);
    if (!record) throw Error(`No caplet has the id ${JSON.stringify(id)}`);
    const incarnation = revive(record);
    return handleFor(record, incarnation, await incarnation.value);
  };

  /** The host's cancel(): ends the running incarnation (it is revived when next provided). */
  const cancel = async (id: FormulaId, reason?: unknown): Promise<void> => {
    const record = records.get(id);
    if (!record) throw Error(`Only caplets can be cancelled in the mail-host simulator`);
    await cancelRecord(record, reason);
  };

  /** When its last name goes, the daemon collects a caplet, which cancels it. */
  const collectIfUnnamed = (id: FormulaId, isNamed: (id: FormulaId) => boolean) => {
    const record = records.get(id);
    if (!record || record.state === 'collected' || isNamed(id)) return;
    void cancelRecord(
      record,
      harden(Error('Collected: the caplet is no longer named')),
      'collected',
    );
  };

  // A formula a worker holds was collected: the worker ends with every caplet on it (unreachable()).
  table.onCollected((id, type) => {
    for (const workerId of workersHolding(id)) {
      drop(workerId);
      for (const record of running(records, held => held.workerId === workerId))
        void cancelRecord(record, unreachable(type));
    }
  });

  /**
   * Daemon going down: every running caplet is cancelled, and every caplet
   * still formulated (including ones cancelled before) is left dormant, to be
   * made again when something provides it (or at start, when it is pinned).
   */
  const stopAll = async (reason: Error): Promise<void> => {
    await Promise.all(
      running(records, () => true).map(record => cancelRecord(record, reason, 'dormant')),
    );
    for (const record of records.values()) {
      if (record.state !== 'collected') record.state = 'dormant';
      // Made again from the formula as stored (formula-strings.ts).
      record.env = record.storedEnv;
    }
    dropAll();
  };

  /** The current incarnation of the newest caplet matching, if its make has returned. */
  const find = (
    matches: (id: FormulaId, workerId: FormulaId) => boolean,
  ): CapletHandle | undefined => {
    const found = [...records.values()]
      .reverse()
      .find(record => matches(record.id, record.workerId));
    const incarnation = found?.current;
    if (!found || !incarnation?.made) return undefined;
    return handleFor(found, incarnation, incarnation.made.value);
  };

  return harden({
    formulateWorker,
    formulateCaplet,
    current,
    find,
    cancel,
    /** A formula failed: every running caplet made with it as its powers is cancelled with its reason. */
    cancelMadeWith: (powersId: FormulaId, reason: Error) =>
      Promise.all(
        running(records, record => record.powersId === powersId).map(record =>
          cancelRecord(record, reason),
        ),
      ),
    collectIfUnnamed,
    stopAll,
    isCaplet: (id: FormulaId) => records.has(id),
  });
};
harden(makeCapletRunner);
export type CapletRunner = ReturnType<typeof makeCapletRunner>;
