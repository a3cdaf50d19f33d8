/**
 * Model server doubles a test file starts, each closed after its test: call
 * `useModelServers()` at the top of a file, then `await startServer(options)`
 * (sim/model-server) in a test.
 */
import { afterEach } from 'vitest';
import { startModelServer, type ModelServer } from '../../sim/model-server/index.js';

export const useModelServers = (): ((
  options: Parameters<typeof startModelServer>[0],
) => Promise<ModelServer>) => {
  const started: ModelServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map(server => server.close()));
  });
  return async options => {
    const server = await startModelServer(options);
    started.push(server);
    return server;
  };
};
