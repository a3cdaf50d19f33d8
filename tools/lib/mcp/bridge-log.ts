/**
 * The bridge's log: one line per event on the worker's stderr (the
 * daemon's log of the caplet), prefixed with the server's name, with the
 * bearer token and every MCP_ENV value whose name marks a secret replaced
 * by [redacted], and any other bearer value too: a server's stderr and its
 * error messages are not trusted to leave them out.
 */
import { redact } from '../../../providers/provider-errors.js';

export type BridgeLog = (line: string) => void;

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|AUTH|CREDENTIAL/i;
const MIN_SECRET_LENGTH = 4;

/** The values a bridge must never show: the token and secret-named variables passed to the server. */
export const bridgeSecrets = (
  token: string | undefined,
  passEnv: Readonly<Record<string, string>>,
): string[] =>
  [
    ...(token === undefined ? [] : [token]),
    ...Object.entries(passEnv)
      .filter(([name]) => SECRET_NAME.test(name))
      .map(([, value]) => value),
  ].filter(value => value.length >= MIN_SECRET_LENGTH);
harden(bridgeSecrets);

export const makeRedactText = (secrets: readonly string[]) => {
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  return (text: string): string =>
    redact(text, sorted).replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]');
};
harden(makeRedactText);

export const makeBridgeLog = (
  name: string,
  redactText: (text: string) => string,
  sink: (line: string) => void = line => process.stderr.write(`${line}\n`),
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
