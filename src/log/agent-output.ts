/**
 * Where the agent's words go besides mail: its log (redacted, whoever
 * provides it) and the observers of its progress (told the same redacted
 * events; an observer that throws does not disturb the agent).
 */
import type { Env } from '../../providers/types.js';
import { makeLog, makeRedactor, neverThrows, secretValues, type Log } from './log.js';
import { makeRedactText } from '../../providers/redact-secrets.js';
import type { AgentEvent, Observe } from '../events/agent-events.js';
import { makeTurnLines } from './turn-lines.js';
import { readLogLevel } from '../settings/settings.js';

export interface AgentOutput {
  log: Log;
  observe: Observe;
  redact: (text: string) => string;
  /** A secret learnt after start (a key read through the powers): redacted from then on, everywhere. */
  addSecret(value: string): void;
}

/** The value with each of its strings redacted as text; numbers and structure untouched. */
export const redactStrings = <T>(value: T, redact: (text: string) => string): T => {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(item => redactStrings(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]),
    ) as T;
  }
  return value;
};
harden(redactStrings);

export const makeAgentOutput = (env: Env, given: { log?: Log; observe?: Observe }): AgentOutput => {
  const learnt: string[] = [];
  let redactNow = makeRedactor(env);
  const redact = (text: string) => redactNow(text);
  const addSecret = (value: string) => {
    learnt.push(value);
    redactNow = makeRedactText([...secretValues(env), ...learnt]);
  };
  const givenLog = given.log;
  const log: Log =
    givenLog === undefined
      ? makeLog(env, undefined, redact)
      : neverThrows(line => givenLog(redact(line)));
  const lineOf = makeTurnLines(readLogLevel(env));
  const observers: Observe[] = [
    (event: AgentEvent) => {
      const line = lineOf(event);
      if (line !== undefined) log(line);
    },
  ];
  if (given.observe !== undefined) observers.push(given.observe);
  const observe: Observe = event => {
    const clean = redactStrings(event, redact);
    for (const observer of observers) {
      try {
        observer(clean);
      } catch {
        // An observer's failure is not the agent's.
      }
    }
  };
  return { log, observe, redact, addSecret };
};
harden(makeAgentOutput);
