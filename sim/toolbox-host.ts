/**
 * A mail host for a Fae with a toolbox of 121 tools (src/toolbox/): the
 * HOST holds two tool sources, `work` (tools 0–60) and `more` (61–120),
 * to be introduced to the agent. Shared by the toolbox tests and bench.
 */
import { E } from '@endo/far';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeMailHost, type MailHost } from './mail-host/index.js';

// The caplet module beside this one, as this one runs: .ts under vitest, .js built.
const sourceUrl = new URL(
  `./toolbox-source-caplet${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
).href;

export const TOOLBOX_SOURCE_URL = sourceUrl;
harden(TOOLBOX_SOURCE_URL);

export const makeToolboxHost = async (): Promise<MailHost> => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-work', sourceUrl, {
    resultName: 'work',
    env: { TOOLBOX_FROM: '0', TOOLBOX_TO: '61' },
  });
  await E(host.host).makeUnconfined('worker-more', sourceUrl, {
    resultName: 'more',
    env: { TOOLBOX_FROM: '61', TOOLBOX_TO: '121' },
  });
  return host;
};
harden(makeToolboxHost);
