/**
 * Runs one tool call the model asked for, as decoded once
 * (src/agent-tools/decode-call.ts), and returns the text it sees: a call that
 * could not be decoded gets its error (never `{}`), the built-in or dynamic
 * tool runs (as the caller's `execute` runs it) under a timeout with the decoded arguments, the result rendered
 * passable-aware and capped. Every failure becomes `{"error": …}` for the model.
 */
import type { AgentLimits } from '../config/config.js';
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';
import { renderError, renderForModel } from '../encoding/render-for-model.js';
import type { Observe } from '../events/agent-events.js';
import { capResult } from './cap-result.js';
import { cutWhole } from '../log/cut-text.js';
import { runWithTimeout } from '../lifecycle/run-with-timeout.js';

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
  execute: (call: DecodedCall) => Promise<unknown>,
  limits: Pick<AgentLimits, 'toolTimeoutMs' | 'maxResultChars'>,
  signal: AbortSignal,
  observe: Observe,
): Promise<string> => {
  const { call } = decoded;
  if (!decoded.ok) {
    observe({
      kind: 'tool-call',
      name: call.name,
      summary: cutWhole(call.arguments, PREVIEW_CHARS, ''),
    });
    observe({ kind: 'tool-result', name: call.name, ok: false, preview: decoded.error });
    return renderError(new Error(decoded.error));
  }
  observe({ kind: 'tool-call', name: call.name, summary: summarise(decoded.args) });
  let text: string;
  let ok = true;
  try {
    const result = await runWithTimeout(
      Promise.resolve().then(() => execute(decoded)),
      limits.toolTimeoutMs,
      `The tool call ${call.name}`,
      signal,
    );
    text = await renderForModel(result);
  } catch (error) {
    ok = false;
    text = renderError(error);
  }
  const capped = capResult(text, limits.maxResultChars);
  observe({
    kind: 'tool-result',
    name: call.name,
    ok,
    preview: cutWhole(capped, PREVIEW_CHARS, ''),
  });
  return capped;
};
harden(runToolCall);
