/**
 * What every SDK back end wraps its calls in, written once: the secret kept
 * out of its log and errors, the log itself, the time limit, the context a
 * failure is told with, the SDK imported on first use, and a streamed answer
 * collected whole under the abort signal and the stall watch (behaviour
 * 7.7). Ollama, whose SDK neither retries nor times out, uses the first
 * part; the OpenAI and Anthropic SDKs, which stream alike, all of it.
 */
import { wrongShapeHint } from './actionable-hints.js';
import type { ProviderConfig } from './config.js';
import { redact, timeoutFailure, type FailureContext } from './provider-errors.js';
import type { ProviderOptions } from './provider-options.js';
import { raceAbort, runAbortable } from './race-abort.js';
import { refuseLongWaits } from './refuse-long-waits.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { makeSdkLogger, sdkFailure, type SdkErrorClasses } from './sdk-failure.js';
import { answeredWhole, makeStallWatch, type StallWatch } from './stall-watch.js';
import { ProviderError } from './types.js';

export interface ProviderShell {
  /** The call's log, every line redacted. */
  log: (line: string) => void;
  timeoutMs: number;
  /** How many times a failed request is sent again (the SDKs' retries; Ollama's are ./retry.ts's). */
  maxRetries: number;
  /** Who failed, told with every failure (the secrets it must never show among them). */
  context: FailureContext;
  /** A reply of the wrong shape (another API's, or nothing) as a failure that says so and hides the secret. */
  wrongShape: (answer: unknown) => ProviderError;
}

export const makeProviderShell = (
  service: string,
  config: ProviderConfig,
  options: ProviderOptions,
): ProviderShell => {
  const secrets = [config.authToken];
  const context: FailureContext = { service, host: config.host, model: config.model, secrets };
  return harden({
    log: (line: string) => options.log?.(redact(line, secrets)),
    timeoutMs: options.timeoutMs ?? config.timeoutMs,
    maxRetries: options.maxRetries ?? config.maxRetries,
    context,
    wrongShape: (answer: unknown) =>
      new ProviderError('unknown', redact(wrongShapeHint(context, answer), secrets)),
  });
};
harden(makeProviderShell);

/** An SDK module imported once, on first use, and raced against the call's signal. */
export const lazySdk = <Module>(load: () => Promise<Module>) => {
  let module: Promise<Module> | undefined;
  return (signal: AbortSignal | undefined): Promise<Module> =>
    raceAbort((module ??= load()), signal);
};
harden(lazySdk);

/** The options the OpenAI and Anthropic SDK clients share: retries, timeout, the fetch, the log. */
export const sdkClientOptions = (
  shell: ProviderShell,
  config: ProviderConfig,
  options: ProviderOptions,
) => ({
  baseURL: config.host,
  maxRetries: shell.maxRetries,
  timeout: shell.timeoutMs,
  fetch: refuseLongWaits(
    options.fetch ?? globalThis.fetch,
    options.retryDelays?.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  ),
  logLevel: options.log ? ('info' as const) : ('off' as const),
  logger: makeSdkLogger(shell.log, shell.context.service),
});
harden(sdkClientOptions);

/** A streamed SDK call as the SDKs give it: the stream and the HTTP response. */
interface StreamedCall<Event> {
  data: AsyncIterable<Event> & { controller: AbortController };
  response: Response;
}

/**
 * The whole answer of one streamed call: the events collected while they
 * keep arriving (a stall is a timeout), or the JSON a server sent instead of
 * a stream; a failure becomes the ProviderError a person can act on.
 */
export const collectStream = async <Event, Answer>(
  shell: ProviderShell,
  classes: SdkErrorClasses,
  signal: AbortSignal | undefined,
  open: (callSignal: AbortSignal | undefined) => Promise<StreamedCall<Event>>,
  collector: { add(event: Event): void; whole(): Answer },
): Promise<Answer> => {
  const { context, timeoutMs } = shell;
  let watch: StallWatch | undefined;
  try {
    return await runAbortable(signal, async callSignal => {
      const { data: stream, response } = await open(callSignal);
      if (answeredWhole(response)) return (await response.json()) as Answer;
      watch = makeStallWatch(timeoutMs, () => stream.controller.abort());
      for await (const event of stream) {
        watch.touch();
        collector.add(event);
      }
      // The SDK ends a stream it was told to abort as if it were whole.
      if (watch.stalled) throw timeoutFailure(context, timeoutMs);
      return collector.whole();
    });
  } catch (error) {
    throw watch?.stalled
      ? timeoutFailure(context, timeoutMs)
      : // The SDK sent a request whose answer never came again and again: it retries timeouts.
        sdkFailure(error, classes, context, timeoutMs, signal, shell.maxRetries + 1);
  } finally {
    watch?.stop();
  }
};
harden(collectStream);
