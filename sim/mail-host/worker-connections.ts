/**
 * The daemon's workers as the caplet runner needs them: a worker formula,
 * and one CapTP loopback per worker (or, for measurements, no connection).
 */
import { makeLoopback } from '@endo/captp';
import { M } from '@endo/patterns';
import { makeGuardedExo } from './guarded-exo.js';
import type { FormulaTable } from './formula-table.js';
import type { FormulaId } from './types.js';

export type Loopback = ReturnType<typeof makeLoopback>;

/** How a worker's caplets reach the daemon: over CapTP as in the daemon, or (for measurements) the objects themselves. */
export type WorkerConnection = 'captp' | 'direct';

const ignore = () => {};

const WorkerInterface = M.interface('EndoWorker', {});

/** No connection at all: the caplet gets the daemon's objects themselves (E() still works on them). */
const directConnection = {
  makeFar: async <T>(value: T): Promise<T> => value,
  makeNear: async <T>(value: T): Promise<T> => value,
} as unknown as Loopback;

export const makeWorkerConnections = (
  table: FormulaTable,
  connection: WorkerConnection = 'captp',
) => {
  let connections = new Map<FormulaId, Loopback>();
  // The formulas each worker was handed over its connection (the daemon's retainers, residence.js).
  let retained = new Map<FormulaId, Set<FormulaId>>();
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
      const held = new Set<FormulaId>();
      const exportHook = (value: unknown) => {
        const id = table.idOf(value);
        if (id !== undefined) held.add(id);
      };
      loop = makeLoopback(
        `worker-${loopbackCount}`,
        { onReject: ignore },
        // The daemon's objects are the far side's (makeFar): what it exports, the worker holds.
        { onReject: ignore, exportHook },
      );
      connections.set(workerId, loop);
      retained.set(workerId, held);
    }
    return loop;
  };

  /** The workers that were handed the formula `id`. */
  const workersHolding = (id: FormulaId): FormulaId[] =>
    [...retained].flatMap(([workerId, held]) => (held.has(id) ? [workerId] : []));

  /** A worker ended: its caplets start on a new connection when next provided. */
  const drop = (workerId: FormulaId) => {
    connections.delete(workerId);
    retained.delete(workerId);
  };

  /** The daemon went down: every worker starts on a new connection. */
  const dropAll = () => {
    connections = new Map();
    retained = new Map();
  };

  return { formulateWorker, connectionFor, workersHolding, drop, dropAll };
};
harden(makeWorkerConnections);
