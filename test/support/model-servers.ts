/**
 * Model server doubles a test file starts, each closed after its test: call
 * `useModelServers()` at the top of a file, then `await startServer(options)`
 * (sim/model-server) in a test; `doubleEnv` gives the simulator's settings to
 * think with one, `lastUserText` what a script reads of a request, and
 * `startScriptedDouble` both with a count of what was asked.
 */
import { afterEach } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type NormalizedRequest,
  type ScriptedReply,
} from '../../sim/model-server/index.js';

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

/** The text of the last user message of a request the double was sent: what a script answers. */
export const lastUserText = (request: NormalizedRequest): string =>
  [...request.messages].reverse().find(message => message.role === 'user')?.text ?? '';

/**
 * `npm start`'s settings to think with the double at `url`: its model named (the double's
 * default, sim/model-server/start-model-server.ts), so the start needs no model list, and the
 * state and temporary files in folders of the test's own (`makeTempFolder`'s, removed after).
 */
export const doubleEnv = (url: string, makeTempFolder: (label: string) => string) => ({
  LAL_HOST: url,
  LAL_MODEL: 'double-model',
  XDG_STATE_HOME: makeTempFolder('state'),
  TMPDIR: makeTempFolder('tmp'),
});

/**
 * A scripted double on loopback (`reply`), the simulator's settings for it, and how many requests
 * so far carried `text` in their last user message: what a pty test waits on before a key.
 */
export const startScriptedDouble = async (
  startServer: ReturnType<typeof useModelServers>,
  makeTempFolder: (label: string) => string,
  reply: (request: NormalizedRequest) => ScriptedReply,
) => {
  const server = await startServer({ protocol: 'openai', reply });
  const env = doubleEnv(server.url, makeTempFolder);
  const askedAbout = (text: string) =>
    server.requests.filter(
      request =>
        request.normalized !== undefined && lastUserText(request.normalized).includes(text),
    ).length;
  return { env, askedAbout };
};
