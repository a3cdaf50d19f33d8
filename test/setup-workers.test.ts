/**
 * Each agent in a worker of its own (issue 35): setup.js starts an agent in
 * `worker-for-<guest>`, and on the newest daemon the agent manager in
 * `worker-for-setup-lal`, unless LAL_WORKER names one to share, so a fault
 * that ends one worker (the daemon collecting a directory it holds, in the
 * double as in endo's residence.js) leaves the others answering.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import { makeSetup } from '../setup.js';
import {
  agentSource,
  captureOutput,
  managerSource,
  startPongModel,
  stubEnv,
  waitForText,
} from './support/setup-harness.js';
import type { ModelServer } from '../sim/model-server/index.js';
import { isHeldName, STATE_DIRECTORY } from '../src/daemon/own-names.js';

const servers: ModelServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map(server => server.close()));
});

const setup = (say: (line: string) => void) =>
  makeSetup({ agentSpecifier: agentSource, managerSpecifier: managerSource, say });

interface Directory {
  has(...path: string[]): Promise<boolean>;
  list(...path: string[]): Promise<string[]>;
  remove(...path: string[]): Promise<void>;
  makeDirectory(name: string): Promise<unknown>;
}

/**
 * Ends the worker the guest's agent runs in, as the daemon does: a new
 * tools/ over the one the agent was handed (it follows its name changes) has
 * the old one collected, once the HOST took away the agent's own name for it
 * too (agent-state/held-…, behaviour 9.13: no turn of the agent's can).
 */
const endWorkerOf = async (mailHost: MailHost, guestName: string, workerName: string) => {
  const powers = E(mailHost.host).lookup(`profile-for-${guestName}`) as Promise<Directory>;
  await expect.poll(() => E(powers).has('tools')).toBe(true);
  const heldNames = async () => (await E(powers).list(STATE_DIRECTORY)).filter(isHeldName);
  await expect.poll(async () => (await heldNames()).length).toBeGreaterThan(0);
  for (const held of await heldNames()) await E(powers).remove(STATE_DIRECTORY, held);
  const before = mailHost.caplet(workerName)!;
  await E(powers).makeDirectory('tools');
  await before.cancelled;
};

interface FormRecord {
  type: string;
  number: bigint;
}

/** Submits the manager's "Add an agent" form (the host's first form) for `name`. */
const submitForm = async (mailHost: MailHost, name: string, host: string) => {
  const form = ((await E(mailHost.host).listMessages()) as unknown as FormRecord[]).find(
    message => message.type === 'form',
  )!;
  await E(
    mailHost.host as unknown as { submit(n: bigint, v: Record<string, string>): Promise<void> },
  ).submit(form.number, { name, host, model: 'pong', authToken: 'none' });
};

/** Cancels every controller the test started, so no agent outlives it. */
const cancelAll = async (mailHost: MailHost) => {
  const names = await E(mailHost.host).list();
  for (const name of names.filter(each => each.startsWith('controller-for-')))
    await mailHost.caplet(name)?.cancel('test over');
};

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
    // erin's agent was handed its tools/ when it followed it: a new one over the name has
    // the daemon collect the old one and end erin's worker.
    // Ended (and, pinned, made again by the daemon at f0a46042a: a new incarnation).
    await endWorkerOf(mailHost, 'erin', 'worker-for-erin');

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

  it('on the newest daemon the agent manager runs in a worker of its own: a fault that ends @main leaves its form answered', async () => {
    const model = await startPongModel();
    servers.push(model);
    const mailHost = makeMailHost({ profile: 'newest' });
    const output = captureOutput();
    try {
      stubEnv({ LAL_HOST: model.url, LAL_MODEL: 'pong' });
      await setup(output.say)(mailHost.host);
      await mailHost.waitForMessage(message => message.type === 'form');

      // Another agent shares @main, and the daemon ends @main under it.
      stubEnv({ LAL_HOST: model.url, LAL_MODEL: 'pong', LAL_NAME: 'dave', LAL_WORKER: '@main' });
      await setup(output.say)(mailHost.host);
      await E(mailHost.host).send('dave', ['ping dave-first'], [], []);
      await waitForText(mailHost, 'pong: ping dave-first');
      await endWorkerOf(mailHost, 'dave', '@main');

      await submitForm(mailHost, 'bob', model.url);
      await waitForText(mailHost, 'Agent "bob" is now running.');
      expect(output.text()).toContain('it runs in a worker of its own, "worker-for-setup-lal"');
      expect(mailHost.caplet('worker-for-setup-lal')?.id).toBe(
        await E(mailHost.host).identify('controller-for-setup-lal'),
      );
    } finally {
      await cancelAll(mailHost);
    }
  });

  it('LAL_WORKER=@main puts the manager on @main beside the agent; LAL_RESTART=1 moves a manager to the worker asked for, keeping its one form', async () => {
    const mailHost = makeMailHost({ profile: 'newest' });
    const output = captureOutput();
    try {
      stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_WORKER: '@main' });
      await setup(output.say)(mailHost.host);
      const managerId = await E(mailHost.host).identify('controller-for-setup-lal');
      // The newest caplet on @main: lal went there first.
      expect(mailHost.caplet('@main')?.id).toBe(managerId);
      expect(await E(mailHost.host).has('worker-for-setup-lal')).toBe(false);
      expect(output.text()).toContain(`it runs in the daemon's main worker "@main"`);
      await mailHost.waitForMessage(message => message.type === 'form');

      // Run again without LAL_WORKER: kept where it is; with LAL_RESTART=1: moved to its own.
      stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1' });
      await setup(output.say)(mailHost.host);
      expect(await E(mailHost.host).identify('controller-for-setup-lal')).toBe(managerId);
      stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_RESTART: '1' });
      await setup(output.say)(mailHost.host);
      const movedId = await E(mailHost.host).identify('controller-for-setup-lal');
      expect(movedId).not.toBe(managerId);
      expect(mailHost.caplet('worker-for-setup-lal')?.id).toBe(movedId);
      expect(await E(mailHost.host).identify('@pins', 'controller-for-setup-lal')).toBe(movedId);
      await expect.poll(() => mailHost.caplet('controller-for-setup-lal')?.id).toBe(movedId);
      const forms = (await E(mailHost.host).listMessages()).filter(
        message => message.type === 'form',
      );
      expect(forms).toHaveLength(1);
    } finally {
      await cancelAll(mailHost);
    }
  });
});
