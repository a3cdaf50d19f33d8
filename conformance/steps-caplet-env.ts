/**
 * A caplet's env before and after a restart: at f0a46042a the daemon writes
 * a formula's strings with q(), which wraps one that starts with "[" in
 * "[…]", and reads the file back as JSON, so `["a"]` comes back `[["a"]]`
 * (sim/mail-host/formula-strings.ts); the newest daemon's database keeps it.
 * setup-tools stores MCP_ARGS so that it survives this (docs/mcp.md).
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Recorder } from './recorder.js';
import { far, type Parties } from './parties.js';

// The caplet module beside this one, as this one runs: .ts under vitest, .js built.
const CAPLET_URL = new URL(
  `./env-caplet${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
).href;

const CAPLET_NAME = 'conf-env-caplet';

/** Strings that a writer's quoting could change: a JSON array, one after a space, a lone "[", plain text. */
const ENV = harden({
  ARRAY: '["--flag","a b"]',
  SPACED: ' ["a"]',
  BRACKET: '[',
  NESTED: '[["a"]]',
  PLAIN: 'plain',
});

const envOf = async (host: unknown) => far(await far(host).lookup!(CAPLET_NAME)).env!();

export const capletEnvSteps = async (rec: Recorder, parties: Parties) => {
  const { host, names } = parties;
  await rec.step('host makes a caplet with env strings', async () => {
    await far(host).makeUnconfined!(names.main, CAPLET_URL, {
      powersName: names.none,
      resultName: CAPLET_NAME,
      env: ENV,
    });
    return envOf(host);
  });
};
harden(capletEnvSteps);

export const capletEnvAfterRestartSteps = async (rec: Recorder, parties: Parties) => {
  await rec.step("a caplet's env strings after the restart", () => envOf(parties.host));
};
harden(capletEnvAfterRestartSteps);
