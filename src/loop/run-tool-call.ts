/**
 * Runs one tool call the model asked for, as decoded once
 * (src/agent-tools/decode-call.ts), and returns the text it sees: a call that
 * could not be decoded gets its error (never `{}`), the built-in or dynamic
 * tool runs under a timeout with the decoded arguments, the result rendered
 * passable-aware and capped. Every failure becomes `{"error": …}` for the model.
 */
import { E } from '@endo/far';
import type { AgentLimits } from '../config/config.js';
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';
import { renderError, renderForModel } from '../encoding/render-for-model.js';
import { BUILTIN_NAMES } from '../agent-tools/builtin-schemas.js';
import { closestNames } from '../../providers/closest-names.js';
import { quoteList } from '../builtin-tools/explain-failure.js';
import { dispatchBuiltinTool, type BuiltinContext } from '../builtin-tools/dispatch-builtin-tool.js';
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

const execute = async (
  { call, values, grouped }: DecodedCall,
  context: BuiltinContext,
  offered: readonly string[],
): Promise<unknown> => {
  if (BUILTIN_NAMES.has(call.name)) return dispatchBuiltinTool(call.name, values, grouped, context);
  const dynamic = context.tools.find(call.name);
  if (dynamic === undefined) {
    // The request's own list: a tool the policy withholds is not named to the model.
    const near = closestNames(call.name, offered);
    throw new Error(
      `Unknown tool "${call.name}". The tools you have are: ${offered.join(', ')}${near.length === 0 ? '' : `; the nearest to "${call.name}": ${quoteList(near)}`}`,
    );
  }
  return E(dynamic.tool).execute(values);
};

export const runToolCall = async (
  decoded: CallDecoding,
  context: BuiltinContext,
  limits: Pick<AgentLimits, 'toolTimeoutMs' | 'maxResultChars'>,
  signal: AbortSignal,
  observe: Observe,
  /** The tools the request offered, named when the call names none of them. */
  offered: readonly string[],
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
      Promise.resolve().then(() => execute(decoded, context, offered)),
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
