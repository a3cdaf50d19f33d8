/**
 * A fresh Fae's first listing of its names does not race its own start-up
 * (issue 35): both daemons list a directory's names at once but read each
 * one's id as it is yielded (pet-store.js, played by the double), so a name
 * removed meanwhile fails the listing with `Invalid formula identifier
 * "[undefined]"` — which the agent retries (sender-names.ts), but the daemon's
 * CapTP still writes the rejection into the worker's log. Fae moves the tools
 * introduced at provisioning into tools/ before it starts following its names.
 * Through make() under lockdown, on both daemon profiles.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;
const { start } = useAgents();

describe('a fresh Fae follows its names only once its introduced tools are in tools/', () => {
  for (const profile of ['f0a46042a', 'newest'] as const) {
    test(`on ${profile}: no listing of its names fails`, async () => {
      const host = makeMailHost({ profile });
      const introducedNames: Record<string, string> = {};
      for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) {
        await E(host.host).makeUnconfined(`worker-${name}`, mathUrl, {
          resultName: `${name}-tool`,
          env: {},
        });
        introducedNames[`${name}-tool`] = `${name}-tool`;
      }
      const run = await start({
        host,
        persona: 'fae',
        introducedNames,
        steps: [replyStep('hello')],
      });
      await run.send('hi');
      await run.reply('hello');
      expect(await E(host.guest('fae').powers).list('tools')).toHaveLength(6);
      expect(host.nameListingFailures('fae')).toBe(0);
    });
  }
});
