/**
 * The agent tests' shared start and clean-up: agents started (or kept) in a
 * test are cancelled after it, whatever it ended with.
 */
import { afterEach } from 'vitest';
import { startAgent, type AgentRun, type StartOptions } from './agent-harness.js';

/** Registers an afterEach that cancels every agent a test started or kept. */
export const useAgents = () => {
  let running: AgentRun[] = [];
  afterEach(async () => {
    await Promise.all(running.map(run => run.cancel().catch(() => {})));
    running = [];
  });
  /** Keeps an agent started some other way, to be cancelled after the test. */
  const keep = (run: AgentRun): AgentRun => {
    running.push(run);
    return run;
  };
  /** Starts an agent as startAgent does and keeps it. */
  const start = async (options: StartOptions = {}): Promise<AgentRun> =>
    keep(await startAgent(options));
  return { start, keep };
};
