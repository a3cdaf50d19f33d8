/**
 * The words the ping timer and the echo floors share: `ping-<n>` sent,
 * `pong: ping-<n>` answered, `ping-<n> failed: <why>` when a floor could not.
 * An agent answers pings with the same words when its model is told to (the
 * guide's scripted model does).
 */
const PING = /^ping-\d+$/;
const ANSWER = /^(?:pong: (ping-\d+)|(ping-\d+) failed: ([\s\S]*))$/;

const joined = (strings: unknown): string | undefined =>
  Array.isArray(strings) && strings.every(part => typeof part === 'string')
    ? strings.join('')
    : undefined;

export const pingText = (n: number): string => `ping-${n}`;
harden(pingText);

export const isPing = (strings: unknown): boolean => PING.test(joined(strings) ?? '');
harden(isPing);

export const pongFor = (strings: unknown): string => `pong: ${joined(strings) ?? ''}`;
harden(pongFor);

export const failureFor = (strings: unknown, why: string): string =>
  `${joined(strings) ?? ''} failed: ${why}`;
harden(failureFor);

/** Which ping a message answers, and how; undefined for any other message. */
export const readAnswer = (strings: unknown): { ping: string; failed?: string } | undefined => {
  const found = ANSWER.exec(joined(strings) ?? '');
  if (found === null) return undefined;
  return found[1] !== undefined ? { ping: found[1] } : { ping: found[2]!, failed: found[3]! };
};
harden(readAnswer);
