/**
 * Each agent in a worker of its own (issue 35): setup.js starts an agent in
 * `worker-for-<guest>` unless LAL_WORKER names one to share, so a fault that
 * ends one agent's worker (the daemon collecting a directory it holds, in the
 * double as in endo's residence.js) leaves the others answering.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeSetup } from '../setup.js';
import {
  agentSource,
  captureOutput,
  startPongModel,
  stubEnv,
  waitForText,
} from './support/setup-harness.js';
import type { ModelServer } from '../sim/model-server/index.js';

const servers: ModelServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map(server => server.close()));
});

const setup = (say: (line: string) => void) => makeSetup({ agentSpecifier: agentSource, say });

describe('a worker per agent', () => {
  it('two agents run in workers of their own, and one whose worker the daemon ends leaves the other answering', async () => {
    const model = await startPongModel();
    servers.push(model);
    const mailHost = makeMailHost();
    const output = captureOutput();
    for (const name of ['dave', 'erin']) {
      stubEnv({ LAL_HOST: model.url, LAL_MODEL: 'pong', LAL_NAME: name });
      await setup(output.say)(mailHost.host);
    }
    expect(output.text()).toContain('it runs in a worker of its own, "worker-for-dave"');
    for (const name of ['dave', 'erin'])
      expect(mailHost.caplet(`worker-for-${name}`)?.id).toBe(
        await E(mailHost.host).identify(`controller-for-${name}`),
      );

    await E(mailHost.host).send('erin', ['ping erin-first'], [], []);
    await waitForText(mailHost, 'pong: ping erin-first');
    // erin's agent was handed its agent-history/ when it made it: a new one over the name has
    // the daemon collect the old one and end erin's worker.
    const erin = E(mailHost.host).lookup('profile-for-erin') as Promise<{
      has(name: string): Promise<boolean>;
      makeDirectory(name: string): Promise<unknown>;
    }>;
    await expect.poll(() => E(erin).has('agent-history')).toBe(true);
    const erinBefore = mailHost.caplet('worker-for-erin')!;
    await E(erin).makeDirectory('agent-history');
    // Ended (and, pinned, made again by the daemon at f0a46042a: a new incarnation).
    await erinBefore.cancelled;

    await E(mailHost.host).send('dave', ['ping dave-after'], [], []);
    await waitForText(mailHost, 'pong: ping dave-after');
  });

  it('LAL_WORKER=MAIN shares the daemon main worker, as before', async () => {
    const mailHost = makeMailHost();
    const output = captureOutput();
    stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_NAME: 'dave', LAL_WORKER: 'MAIN' });
    await setup(output.say)(mailHost.host);
    expect(output.text()).toContain(`it runs in the daemon's main worker "MAIN"`);
    expect(await E(mailHost.host).has('worker-for-dave')).toBe(false);
    stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_NAME: 'erin', LAL_WORKER: 'Not A Name' });
    await expect(setup(output.say)(mailHost.host)).rejects.toThrow(/LAL_WORKER must be "MAIN"/);
  });
});
