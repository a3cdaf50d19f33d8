/**
 * Where the agent's words go besides mail: its log (redacted, whoever
 * provides it) and the observers of its progress (told the same redacted
 * events; an observer that throws does not disturb the agent).
 */
import type { Env } from '../providers/types.js';
import { makeLog, makeRedactor, type Log } from './log.js';
import type { AgentEvent, Observe } from './loop/agent-events.js';
import { describeEvent } from './loop/describe-event.js';

export interface AgentOutput {
  log: Log;
  observe: Observe;
  redact: (text: string) => string;
}

export const makeAgentOutput = (env: Env, given: { log?: Log; observe?: Observe }): AgentOutput => {
  const redact = makeRedactor(env);
  const givenLog = given.log;
  const log: Log = givenLog === undefined ? makeLog(env) : line => givenLog(redact(line));
  const observers: Observe[] = [(event: AgentEvent) => log(describeEvent(event))];
  if (given.observe !== undefined) observers.push(given.observe);
  const observe: Observe = event => {
    const clean = JSON.parse(redact(JSON.stringify(event))) as AgentEvent;
    for (const observer of observers) {
      try {
        observer(clean);
      } catch {
        // An observer's failure is not the agent's.
      }
    }
  };
  return { log, observe, redact };
};
