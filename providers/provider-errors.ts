/**
 * Turns what went wrong at the wire into a ProviderError a person can act on.
 * Every message passes through `redact`, so a token that a server echoes back
 * (or that sits in the host's user-info) never reaches a log or a mail.
 */
import { contextOverflow, wrongEndpointHint } from './actionable-hints.js';
import { ProviderError } from './types.js';
import type { ProviderErrorKind } from './types.js';
import { describeError } from './describe-error.js';
import { displayHost } from './display-host.js';
import { badPortProblem, isBadPort } from './bad-port.js';

export interface FailureContext {
  /** 'Anthropic', 'OpenAI-compatible server', 'Ollama'. */
  service: string;
  host: string;
  model: string;
  /** Values that must never be shown (the auth token). */
  secrets: readonly (string | undefined)[];
}

const MAX_SERVER_TEXT = 300;

export const redact = (text: string, secrets: readonly (string | undefined)[]): string => {
  let clean = text;
  for (const secret of secrets) {
    // Looked for first: most texts hold no secret, and split/join would copy each of them.
    if (secret !== undefined && secret.length >= 4 && clean.includes(secret))
      clean = clean.split(secret).join('[redacted]');
  }
  return clean;
};
harden(redact);

const serverSays = (serverText: string | undefined, secrets: FailureContext['secrets']): string => {
  if (serverText === undefined || serverText.trim() === '') return '';
  // A final period is left to the sentence around the words.
  const clean = redact(serverText.trim(), secrets).replace(/[.\s]+$/, '');
  const cut = clean.length > MAX_SERVER_TEXT ? `${clean.slice(0, MAX_SERVER_TEXT)}…` : clean;
  return `: ${cut}`;
};

/** A failure that came back as an HTTP status (after any retries). */
export const httpFailure = (
  status: number,
  serverText: string | undefined,
  context: FailureContext,
  /** The parsed error body, when the server sent JSON (llama.cpp puts token counts there). */
  details?: unknown,
): ProviderError => {
  const where = `${context.service} at ${displayHost(context.host)}`;
  const said = serverSays(serverText, context.secrets);
  const make = (kind: ProviderErrorKind, message: string) =>
    new ProviderError(kind, redact(message, context.secrets), status);
  if (status === 401 || status === 403) {
    // The server's words are left out: some echo part of the key they refused.
    return make('auth', `${where} refused the credentials (HTTP ${status}). Check LAL_AUTH_TOKEN.`);
  }
  if (status === 404) {
    if (/model/i.test(serverText ?? '') || (serverText ?? '').includes(context.model)) {
      return make(
        'model-not-found',
        `${where} does not know the model "${context.model}" (HTTP 404)${said}. Check LAL_MODEL.`,
      );
    }
    return make(
      'config',
      `${where} has no such endpoint (HTTP 404)${said}. ${wrongEndpointHint(context)}`,
    );
  }
  const overflow = contextOverflow(serverText, details);
  if (overflow !== undefined && (status === 400 || status === 413 || status === 500)) {
    return make(
      'bad-request',
      `${where} rejected the request as too long for its context${overflow}`,
    );
  }
  if (status === 429)
    return make('rate-limit', `${where} is rate limiting requests (HTTP 429)${said}.`);
  if (status === 408) return make('timeout', `${where} timed out the request (HTTP 408)${said}.`);
  if (status >= 500) return make('server', `${where} failed (HTTP ${status})${said}.`);
  if (status === 400 || status === 413 || status === 422) {
    return make('bad-request', `${where} rejected the request (HTTP ${status})${said}`);
  }
  return make('unknown', `${where} answered HTTP ${status}${said}`);
};
harden(httpFailure);

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND, ...). */
const causeCode = (error: unknown): string | undefined => {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
};

/** Codes that mean nothing answers at the address (as opposed to a connection that was made and then lost). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

export const connectionFailure = (error: unknown, context: FailureContext): ProviderError => {
  if (isBadPort(error))
    return new ProviderError('connection', redact(badPortProblem(context.host), context.secrets));
  const code = causeCode(error);
  const detail = code === undefined ? '' : ` (${code})`;
  const where = `${context.service} at ${displayHost(context.host)}`;
  const text =
    code === 'EAI_AGAIN'
      ? // No name server answered: what a machine without network gets; not a typo first.
        `Cannot reach ${where}${detail}: no name server answered for its name — is this machine online? Check its network and DNS (or LAL_HOST for a typo).`
      : code === 'ENOTFOUND'
        ? `Cannot reach ${where}${detail}: its name does not resolve — a typo in LAL_HOST, or this machine has no network or name server.`
        : code === undefined || UNREACHABLE.has(code)
          ? `Cannot reach ${where}${detail}. Is it running? Set LAL_HOST to its address.`
          : `${where} closed the connection before answering${detail}. The server is up but dropped the request: check its log (it may have crashed or run out of memory) and that LAL_HOST points at the right service.`;
  return new ProviderError('connection', redact(text, context.secrets));
};
harden(connectionFailure);

/** A time as a person reads it: whole seconds in seconds (600 s, not 600000 ms). */
const duration = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * The last of `attempts` that each waited `timeoutMs` for an answer: the line says how many, so
 * a sender who waited 3 × 600 s knows why (issue 45; docs/troubleshooting.md).
 */
export const timeoutFailure = (
  context: FailureContext,
  timeoutMs: number,
  attempts = 1,
): ProviderError =>
  new ProviderError(
    'timeout',
    `${context.service} at ${displayHost(context.host)} did not answer within ${duration(timeoutMs)}${
      attempts > 1
        ? `, ${attempts} attempts (LAL_REQUEST_TIMEOUT_MS each, LAL_MAX_RETRIES).`
        : ' (LAL_REQUEST_TIMEOUT_MS).'
    }`,
  );
harden(timeoutFailure);

export const abortedFailure = (): ProviderError =>
  new ProviderError('aborted', 'The model call was cancelled.');
harden(abortedFailure);

/** How much of an answer that is not JSON is quoted: enough to tell an HTML page or a proxy's words. */
const QUOTED_CHARS = 40;

/**
 * A JSON parser's failure on the server's answer, said as what it means (issue 45): not the
 * parser's words (`Unexpected token 'h', "this is not"... is not valid JSON`) but that the server
 * answered something that is not JSON, its first bytes as the parser quoted them, and what to check.
 */
const notJson = (error: unknown, context: FailureContext): string | undefined => {
  if (!(error instanceof Error) || error.name !== 'SyntaxError' || !/JSON/.test(error.message))
    return undefined;
  const quoted = /"(.*)"(\.\.\.)? is not valid JSON/s.exec(error.message);
  const began =
    quoted === null
      ? 'it was empty or cut short'
      : `it began "${quoted[1]!.slice(0, QUOTED_CHARS)}${quoted[2] !== undefined || quoted[1]!.length > QUOTED_CHARS ? '…' : ''}"`;
  return `${context.service} at ${displayHost(context.host)} answered something that is not JSON (${began}). Check that LAL_HOST is the model server's API address (an OpenAI-compatible server's ends in /v1) and LAL_PROVIDER its kind, not a web page or a proxy.`;
};

/** Anything else, described without its stack or any request details. */
export const unexpectedFailure = (error: unknown, context: FailureContext): ProviderError => {
  const parse = notJson(error, context);
  if (parse !== undefined) return new ProviderError('server', redact(parse, context.secrets));
  const text = describeError(error);
  return new ProviderError(
    'unknown',
    redact(`${context.service} call failed: ${text}`, context.secrets),
  );
};
harden(unexpectedFailure);
