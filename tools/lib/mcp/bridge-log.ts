/**
 * The bridge's log: one line per event on the worker's stderr (the
 * daemon's log of the caplet), prefixed with the server's name, with the
 * bearer token and every MCP_ENV value whose name marks a secret replaced
 * by [redacted], and any other bearer or x-api-key value too, by the agent's
 * own redactor (providers/redact-secrets.ts): a server's stderr and its
 * error messages are not trusted to leave them out.
 */
import { secretNamedValues } from '../../../providers/redact-secrets.js';
import { writeStderrLine } from '../../../providers/stderr-sink.js';

export type BridgeLog = (line: string) => void;

/** The values a bridge must never show: the token and secret-named variables passed to the server. */
export const bridgeSecrets = (
  token: string | undefined,
  passEnv: Readonly<Record<string, string>>,
): string[] => [...(token === undefined ? [] : [token]), ...secretNamedValues(passEnv)];
harden(bridgeSecrets);

export const makeBridgeLog = (
  name: string,
  redactText: (text: string) => string,
  sink: (line: string) => void = writeStderrLine,
): BridgeLog => {
  return line => {
    try {
      sink(redactText(`[mcp-${name}] ${line}`));
    } catch {
      // A log that cannot be written is not the call's failure.
    }
  };
};
harden(makeBridgeLog);
