/**
 * A fetch for the OpenAI and Anthropic SDKs that stops them retrying when
 * the server asks for a long wait (a 429 or 503 with a Retry-After beyond
 * `maxRetryAfterMs`). Left alone, both SDKs ignore a Retry-After over a
 * minute and retry at once on their own schedule, which the server will
 * refuse again; marked `x-should-retry: false` (a header both SDKs obey),
 * the failure comes back at once, and a fallback server can take the call.
 */
import { parseRetryAfter } from './retry.js';

export const refuseLongWaits =
  (baseFetch: typeof fetch, maxRetryAfterMs: number): typeof fetch =>
  async (input, init) => {
    const response = await baseFetch(input, init);
    if (response.status !== 429 && response.status !== 503) return response;
    const asked = parseRetryAfter(response.headers);
    if (asked === undefined || asked <= maxRetryAfterMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
harden(refuseLongWaits);
