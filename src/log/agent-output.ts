/**
 * Where the agent's words go besides mail: its log (redacted, whoever
 * provides it) and the observers of its progress (told the same redacted
 * events; an observer that throws does not disturb the agent).
 */
import type { Env } from '../../providers/types.js';
import { makeLog, makeRedactor, neverThrows, secretValues, type Log } from './log.js';
import { makeRedactText, type Redact } from '../../providers/redact-secrets.js';
import type { Observe } from '../events/agent-events.js';
import { makeTurnLines } from './turn-lines.js';
import { readLogLevel } from '../settings/settings.js';

export interface AgentOutput {
  log: Log;
  observe: Observe;
  redact: Redact;
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
  const redact: Redact = Object.assign((text: string) => redactNow(text), {
    mayChangeJson: (json: string) => redactNow.mayChangeJson?.(json) ?? true,
  });
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
  const givenObserve = given.observe;
  // The log's line needs no redacted event: the log redacts every line it writes, and a line holds
  // a secret only where one of the event's strings did. Only an observer given is told a copy.
  const observe: Observe = event => {
    // An observer's failure is not the agent's, nor another observer's.
    try {
      const line = lineOf(event);
      if (line !== undefined) log(line);
    } catch {
      // Nothing to tell: the log is the place it would be told.
    }
    if (givenObserve === undefined) return;
    try {
      givenObserve(redactStrings(event, redact));
    } catch {
      // As above.
    }
  };
  return { log, observe, redact, addSecret };
};
harden(makeAgentOutput);
