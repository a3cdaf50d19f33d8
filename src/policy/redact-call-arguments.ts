/**
 * A secret the model writes into a tool call's arguments (one it read, or
 * was told) is hidden before the call goes anywhere: the HOST's approval
 * request, a built-in's message or stored value, a FaeTool, runCommand's
 * child process. The strings are redacted as values, so a token whose
 * characters JSON escapes is hidden too; arguments holding no secret are
 * passed on exactly as written.
 */
import type { ToolCall } from '../../providers/types.js';
import { redactStrings } from '../agent-output.js';
import { decodeArguments } from '../encoding/decode-arguments.js';

export const redactCallArguments = (call: ToolCall, redact: (text: string) => string): ToolCall => {
  const decoded = decodeArguments(call.arguments);
  if (!decoded.ok) {
    // Not JSON: it will not run, but its text is quoted back and may be asked about.
    const text = redact(call.arguments);
    return text === call.arguments ? call : { ...call, arguments: text };
  }
  const clean = JSON.stringify(redactStrings(decoded.args, redact));
  return clean === JSON.stringify(decoded.args) ? call : { ...call, arguments: clean };
};
