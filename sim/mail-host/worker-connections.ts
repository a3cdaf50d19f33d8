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

  /** The daemon went down: every worker starts on a new connection. */
  const dropAll = () => {
    connections = new Map();
  };

  return { formulateWorker, connectionFor, dropAll };
};
harden(makeWorkerConnections);
