/**
 * Runs one tool call the model asked for, as decoded once
 * (src/agent-tools/decode-call.ts), and returns the text it sees: a call that
 * could not be decoded gets its error (never `{}`), the built-in or dynamic
 * tool runs (as the caller's `execute` runs it) under a timeout with the decoded arguments, the result rendered
 * passable-aware and capped. Every failure becomes `{"error": …}` for the model. Each call has a stop
 * of its own, given to `execute` (a FaeTool that can be stopped is told, behaviour 6.7): it aborts when
 * the turn is cancelled, when the call runs past its time limit, or once it answered, whichever is first.
 */
import type { AgentLimits } from '../config/config.js';
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';
import { renderError, renderForModel } from '../encoding/render-for-model.js';
import type { Observe } from '../events/agent-events.js';
import { capResult } from './cap-result.js';
import { cutWhole } from '../log/cut-text.js';
import { runWithTimeout, TimeoutError } from '../lifecycle/run-with-timeout.js';

const PREVIEW_CHARS = 120;

const summarise = (args: Record<string, unknown>): string => {
  const text = JSON.stringify(args, (_key, value: unknown) =>
    typeof value === 'bigint' ? `+${value}` : value,
  );
  return cutWhole(text, PREVIEW_CHARS);
};

export const runToolCall = async (
  decoded: CallDecoding,
  /**
   * Runs a decoded call: the built-in or dynamic tool it names (src/builtin-tools/execute-tool.ts),
   * given by whoever runs the loop, so the loop imports no tool (docs/architecture.md, "Layers").
   */
  execute: (call: DecodedCall, stop: AbortSignal) => Promise<unknown>,
  limits: Pick<AgentLimits, 'toolTimeoutMs' | 'maxResultChars'>,
  signal: AbortSignal,
  observe: Observe,
): Promise<string> => {
  const { call } = decoded;
  if (!decoded.ok) {
    observe({
      kind: 'tool-call',
      id: call.id,
      name: call.name,
      summary: cutWhole(call.arguments, PREVIEW_CHARS, ''),
    });
    observe({
      kind: 'tool-result',
      id: call.id,
      name: call.name,
      ok: false,
      preview: decoded.error,
    });
    return renderError(new Error(decoded.error));
  }
  observe({ kind: 'tool-call', id: call.id, name: call.name, summary: summarise(decoded.args) });
  let text: string;
  let ok = true;
  const stop = new AbortController();
  const stopped = () => stop.abort('its turn was stopped');
  if (signal.aborted) stopped();
  // Removed in `finally`, whichever way the call ends.
  else signal.addEventListener('abort', stopped);
  try {
    const result = await runWithTimeout(
      Promise.resolve().then(() => {
        // A call whose turn was stopped meanwhile is not started.
        stop.signal.throwIfAborted();
        return execute(decoded, stop.signal);
      }),
      limits.toolTimeoutMs,
      `The tool call ${call.name}`,
      // The turn's stop reaches it through the call's: one listener on the turn's long-lived signal.
      stop.signal,
    );
    text = await renderForModel(result);
  } catch (error) {
    ok = false;
    text = renderError(error);
    if (error instanceof TimeoutError)
      stop.abort(`it ran past the agent's limit of ${limits.toolTimeoutMs} ms`);
  } finally {
    signal.removeEventListener('abort', stopped);
    // Nothing waits for it any more: a tool still at work stops; one that answered ignores it.
    stop.abort('it answered');
  }
  const capped = capResult(text, limits.maxResultChars);
  observe({
    kind: 'tool-result',
    id: call.id,
    name: call.name,
    ok,
    preview: cutWhole(capped, PREVIEW_CHARS, ''),
  });
  return capped;
};
harden(runToolCall);
