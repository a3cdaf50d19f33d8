/**
 * What an MCP bridge was made with, as setup compares it on a second run
 * (docs/mcp.md): its MCP_* settings, trimmed, and the variables MCP_ENV
 * passes by name only; no secret. A bridge answers it (`madeWith()`), and
 * setup reads the same of the settings it would make it with.
 */
import type { Env } from '../../../providers/types.js';
import { isSecretName } from '../../../providers/redact-secrets.js';
import { MCP_ENV_NAMES } from '../tool-settings.js';
import { mcpEnvNames } from './mcp-settings.js';

export const mcpMadeWith = (env: Env | undefined): Record<string, string> => {
  const shown: Record<string, string> = {};
  for (const name of MCP_ENV_NAMES) {
    const value = env?.[name]?.trim();
    if (value !== undefined && value !== '' && !isSecretName(name)) shown[name] = value;
  }
  for (const name of mcpEnvNames(env?.MCP_ENV))
    if (env?.[name] !== undefined) shown[name] = '(passed)';
  return harden(shown);
};
harden(mcpMadeWith);
