/**
 * How much of each request a prefix cache can reuse from the one before:
 * a request read as such a cache reads it (the tools, then each message),
 * compared byte by byte with the previous one.
 */
import type { ModelServer } from '../sim/model-server/index.js';

type RecordedRequest = ModelServer['requests'][number];

interface WireBody {
  messages?: unknown[];
  tools?: unknown[];
}

/** A request as a prefix cache reads it: the tools, then each message. */
export const prefixTextOf = (request: RecordedRequest): string => {
  const body = request.body as WireBody;
  return [JSON.stringify(body.tools ?? []), ...(body.messages ?? []).map(m => JSON.stringify(m))]
    .map(piece => `${piece}\n`)
    .join('');
};
harden(prefixTextOf);

const commonPrefix = (a: string, b: string): number => {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
};

export interface Reuse {
  requests: number;
  /** Bytes a prefix cache could reuse, over all bytes sent. */
  reusable: number;
  /** Requests that do not start with the whole previous one (a fold rewrote the beginning). */
  rewrites: number;
}

/** Reuse of each request from the one before it. */
export const reuseOf = (texts: readonly string[]): Reuse => {
  let reused = 0;
  let total = 0;
  let rewrites = 0;
  texts.forEach((text, index) => {
    total += Buffer.byteLength(text);
    if (index === 0) return;
    const common = commonPrefix(text, texts[index - 1]!);
    reused += Buffer.byteLength(text.slice(0, common));
    if (common < texts[index - 1]!.length) rewrites += 1;
  });
  return { requests: texts.length, reusable: reused / Math.max(1, total), rewrites };
};
harden(reuseOf);
