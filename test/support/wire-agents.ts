/**
 * What the agent tests at the wire share: model servers and agents closed after each test, the
 * number of the message the latest notice is about, and the env that points an agent at a double.
 */
import { afterEach } from 'vitest';
import type {
  ModelProtocol,
  ModelServer,
  NormalizedRequest,
} from '../../sim/model-server/index.js';
import type { AgentRun } from './agent-harness.js';

/** Registers an afterEach that cancels the agents and closes the servers a test kept. */
export const useWireAgents = () => {
  let servers: ModelServer[] = [];
  let running: AgentRun[] = [];
  afterEach(async () => {
    await Promise.all(running.map(run => run.cancel().catch(() => {})));
    await Promise.all(servers.map(server => server.close()));
    servers = [];
    running = [];
  });
  return {
    keepServer: (server: ModelServer) => servers.push(server),
    keepAgent: (run: AgentRun) => running.push(run),
  };
};

/** The number in the latest user message's notice ("#N"). */
export const noticeNumber = (request: NormalizedRequest): number => {
  const users = request.messages.filter(message => message.role === 'user');
  const found = [...(users.at(-1)?.text ?? '').matchAll(/#(\d+)/g)].pop();
  if (found === undefined) throw new Error('no notice');
  return Number(found[1]);
};

/** The env of an agent using a double's protocol, with a fake key and one retry. */
export const wireEnv = (
  protocol: ModelProtocol,
  url: string,
  extra: Record<string, string> = {},
): Record<string, string> => ({
  LAL_HOST: url,
  LAL_PROVIDER: protocol,
  LAL_MODEL: 'test-model',
  LAL_AUTH_TOKEN: 'test-key-123456',
  LAL_MAX_RETRIES: '1',
  ...extra,
});
