/**
 * A port Node's fetch will not use: the Fetch standard blocks some ports
 * (1, 6000 for X11, 25 for mail, …) and undici refuses them before any
 * connection is tried, throwing "fetch failed" caused by "bad port". No
 * server on such a port can be reached from Node, so this is said apart from
 * "nothing answers" (the start-up check) and "cannot reach" (a model call).
 */
import { displayHost } from './display-host.js';

/** Whether `error` (or one of its causes) is fetch's refusal of a blocked port. */
export const isBadPort = (error: unknown): boolean => {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current.message === 'bad port') return true;
    current = current.cause;
  }
  return false;
};
harden(isBadPort);

/** The port an address names, if it names one. */
const portOf = (host: string): string | undefined => {
  try {
    return new URL(host).port || undefined;
  } catch {
    // An address that does not parse names no port; the sentence still names LAL_HOST.
    return undefined;
  }
};

/** Why, in the words each sentence about a blocked port shares. */
const WHY =
  'its fetch blocks the port (a "bad port" of the Fetch standard, kept for other services)';

/** The sentence a person acts on: the port, the address, and what to change. */
export const badPortProblem = (host: string): string => {
  const port = portOf(host);
  return `Node refuses to use ${port === undefined ? 'the port' : `port ${port}`} of LAL_HOST (${displayHost(host)}): ${WHY}, so no server there can be reached — run the model server on another port and set LAL_HOST to it.`;
};
harden(badPortProblem);

/** A server about to listen on a blocked port (the model double): `what` names its use of it. */
export const blockedListenProblem = (port: number, what: string): string =>
  `Node refuses to use port ${port} (${what}): ${WHY}, so no agent could reach the double there — choose another --port.`;
harden(blockedListenProblem);

/**
 * Whether Node's fetch blocks `port`, asked of fetch itself, so the list is
 * the one `npm start` meets (no copy of it): fetch refuses a blocked port
 * before it hands the request on, and the dispatcher it would be handed to
 * refuses every request, so nothing is ever sent, blocked or not.
 */
export const fetchBlocksPort = async (port: number): Promise<boolean> => {
  const dispatcher = {
    dispatch: () => {
      throw Error('only asked whether the port is blocked');
    },
  };
  try {
    // `dispatcher` is Node's own option of fetch (undici's); this one is only the part fetch calls.
    await fetch(`http://127.0.0.1:${port}/`, { dispatcher } as unknown as RequestInit);
    return false;
  } catch (error) {
    return isBadPort(error);
  }
};
harden(fetchBlocksPort);
