// One redactor (providers/redact-secrets.ts) for the agent's log and the MCP bridge's: the same
// secret-named variables hidden by both, and an echoed x-api-key hidden by both. Before, the
// log did not know CREDENTIAL names and the bridge neither HEADER names nor x-api-key values.
import { describe, expect, it } from 'vitest';
import { makeLog } from '../src/log/log.js';
import { bridgeSecrets, makeBridgeLog } from '../tools/lib/mcp/bridge-log.js';
import { makeRedactText } from '../providers/redact-secrets.js';

const lines = () => {
  const written: string[] = [];
  return { written, sink: (line: string) => written.push(line) };
};

describe('the one redactor', () => {
  const env = {
    SERVICE_CREDENTIAL: 'cred-0123456789',
    X_HEADER: 'hdr-0123456789',
    LAL_MAX_TOKENS: '2048',
  };
  const said = 'cred-0123456789 and hdr-0123456789, x-api-key: sk0123456789abcd, 2048 tokens';
  const hidden = '[redacted] and [redacted], x-api-key: [redacted], 2048 tokens';

  it("hides in the agent's log every secret-named value, an echoed x-api-key, and no plain number", () => {
    const { written, sink } = lines();
    makeLog(env, sink)(said);
    expect(written).toEqual([`[lal] ${hidden}`]);
  });

  it("hides the same in the MCP bridge's log", () => {
    const { written, sink } = lines();
    makeBridgeLog('files', makeRedactText(bridgeSecrets(undefined, env)), sink)(said);
    expect(written).toEqual([`[mcp-files] ${hidden}`]);
  });
});
