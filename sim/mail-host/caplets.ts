/**
 * Runs caplets as the daemon's workers do: each worker is one CapTP loopback,
 * so `powers` arrives as a promise for a remote presence and `context` as a
 * remote object; `make`'s result comes back through the same connection.
 * Caplets are cancelled when their formula is collected; after a restart they
 * are made again when provided (a look-up, or the daemon's revival of PINS).
 */
import { makeLoopback } from '@endo/captp';
import { makeGuardedExo } from './guarded-exo.js';
import { M, mustMatch } from '@endo/patterns';
import { makeCapletContext } from './context.js';
import type { CapletContextKit } from './context.js';
import type { FormulaTable } from './formula-table.js';
import type { CapletHandle, FormulaId, MakeFn } from './types.js';

type Loopback = ReturnType<typeof makeLoopback>;

const ignore = () => {};

const EnvShape = M.recordOf(M.string(), M.string());
const WorkerInterface = M.interface('EndoWorker', {});

interface Incarnation {
  readonly context: CapletContextKit;
  readonly value: Promise<unknown>;
  readonly cancelled: Promise<void>;
  /** Set once `make` has returned, for synchronous access. */
  made?: { value: unknown };
}

interface CapletRecord {
  readonly id: FormulaId;
  readonly load: () => Promise<MakeFn>;
  readonly powersId: FormulaId;
  readonly env: Record<string, string>;
  readonly workerId: FormulaId;
  /** running: has a live incarnation; dormant: revived when provided; collected: gone. */
  state: 'running' | 'cancelled' | 'dormant' | 'collected';
  current: Incarnation | undefined;
}

/** How a worker's caplets reach the daemon: over CapTP as in the daemon, or (for measurements) the objects themselves. */
export type WorkerConnection = 'captp' | 'direct';

/** No connection at all: the caplet gets the daemon's objects themselves (E() still works on them). */
const directConnection = {
  makeFar: async <T>(value: T): Promise<T> => value,
  makeNear: async <T>(value: T): Promise<T> => value,
} as unknown as Loopback;

export const makeCapletRunner = (table: FormulaTable, connection: WorkerConnection = 'captp') => {
  const records = new Map<FormulaId, CapletRecord>();
  let connections = new Map<FormulaId, Loopback>();
  let loopbackCount = 0;

  const formulateWorker = (): FormulaId => {
    const worker = makeGuardedExo('EndoWorker', WorkerInterface, {});
    const id = table.formulate({ type: 'worker', provide: () => worker });
    table.remember(worker, id);
    return id;
  };

  /** One connection per worker: objects of caplets on one worker meet each other unwrapped. */
  const connectionFor = (workerId: FormulaId): Loopback => {
    if (connection === 'direct') return directConnection;
    let loop = connections.get(workerId);
    if (!loop) {
      loopbackCount += 1;
      // Rejected calls are the caller's to handle; CapTP's own console report of each is noise here.
      loop = makeLoopback(`worker-${loopbackCount}`, { onReject: ignore }, { onReject: ignore });
      connections.set(workerId, loop);
    }
    return loop;
  };

  const incarnate = (record: CapletRecord): Incarnation => {
    const context = makeCapletContext(record.id);
    const value = (async () => {
      const make = await record.load();
      const loop = connectionFor(record.workerId);
      const powers = loop.makeFar(table.provide(record.powersId));
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

  const handleFor = (record: CapletRecord, incarnation: Incarnation, value: unknown): CapletHandle =>
    harden({
      id: record.id,
      value,
      cancel: (reason?: unknown) => cancelRecord(record, reason),
      cancelled: incarnation.cancelled,
    });

  const cancelRecord = async (record: CapletRecord, reason?: unknown, nextState: CapletRecord['state'] = 'cancelled') => {
    const incarnation = record.current;
    record.state = nextState;
    record.current = undefined;
    if (incarnation) await incarnation.context.cancel(reason ?? harden(Error('Cancelled')));
  };

  const revive = (record: CapletRecord): Incarnation => {
    if (record.current) return record.current;
    // A cancelled caplet comes back when something provides it, as a formula does in the daemon.
    if (record.state === 'collected') throw Error(`No formula exists for id ${JSON.stringify(record.id)}`);
    record.current = incarnate(record);
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
      env: env as Record<string, string>,
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
    void cancelRecord(record, harden(Error('Collected: the caplet is no longer named')), 'collected');
  };

  /**
   * Daemon going down: every running caplet is cancelled, and every caplet
   * still formulated (including ones cancelled before) is left dormant, to be
   * made again when something provides it (or at start, when it is pinned).
   */
  const stopAll = async (reason: Error): Promise<void> => {
    const running = [...records.values()].filter(record => record.state === 'running');
    await Promise.all(running.map(record => cancelRecord(record, reason, 'dormant')));
    for (const record of records.values()) if (record.state !== 'collected') record.state = 'dormant';
    connections = new Map();
  };

  /** The current incarnation of the newest caplet matching, if its make has returned. */
  const find = (matches: (id: FormulaId, workerId: FormulaId) => boolean): CapletHandle | undefined => {
    const found = [...records.values()].reverse().find(record => matches(record.id, record.workerId));
    const incarnation = found?.current;
    if (!found || !incarnation?.made) return undefined;
    return handleFor(found, incarnation, incarnation.made.value);
  };

  return harden({ formulateWorker, formulateCaplet, current, find, cancel, collectIfUnnamed, stopAll, isCaplet: (id: FormulaId) => records.has(id) });
};
export type CapletRunner = ReturnType<typeof makeCapletRunner>;
