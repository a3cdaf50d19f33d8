// The setup scripts on the newest daemon (the mail host's 'newest' profile), as
// `endo run --UNCONFINED dist/setup.js --powers @agent` runs them: the newest
// CLI's names (@main, @none, @pins, storeIdentifier), upstream Lal's ENDO_LLM_*
// variables read as our LAL_* ones. The agents run under lockdown through make().
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import type { ModelServer } from '../sim/model-server/index.js';
import { makeSetup } from '../setup.js';
import { makeToolSetup } from '../setup-tools.js';
import { ECHO_STARTED } from './support/env-echo-caplet.js';
import {
  agentSource,
  captureOutput,
  echoSource,
  hostInboxTexts,
  managerSource,
  startPongModel,
  stubEnv,
  textOf,
  toolSource,
  waitForText,
} from './support/setup-harness.js';

const SECRET = 'sk-endo-llm-7a6b5c4d3e2f-never-print-me';
const CLOSED_HOST = 'http://127.0.0.1:9/v1';

const servers: ModelServer[] = [];
const running: MailHost[] = [];
const newMailHost = (profile: 'newest' | 'f0a46042a' = 'newest') => {
  const mailHost = makeMailHost({ profile });
  running.push(mailHost);
  return mailHost;
};

afterEach(async () => {
  for (const mailHost of running.splice(0)) {
    const names = await E(mailHost.host).list();
    for (const name of names.filter(each => each.startsWith('controller-for-')))
      await mailHost.caplet(name)?.cancel('test over');
  }
  await Promise.all(servers.splice(0).map(server => server.close()));
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const setupWith = (say: (line: string) => void, agentSpecifier = agentSource) =>
  makeSetup({ agentSpecifier, managerSpecifier: managerSource, say });

describe('setup.js on the newest daemon', () => {
  it('with ENDO_LLM_HOST / _MODEL / _AUTH_TOKEN provisions an agent that answers a ping, pinned in @pins; the token authenticates at the wire and is never printed', async () => {
    const mailHost = newMailHost();
    const model = await startPongModel(SECRET);
    servers.push(model);
    stubEnv({
      ENDO_LLM_HOST: model.url,
      ENDO_LLM_MODEL: 'test-model',
      ENDO_LLM_AUTH_TOKEN: SECRET,
      LAL_FORM: '0',
    });
    const output = captureOutput();
    await setupWith(output.say)(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    await E(mailHost.host).send('lal', ['ping newest'], [], []);
    await waitForText(mailHost, 'pong: ping newest');

    const controllerId = await E(mailHost.host).identify('controller-for-lal');
    expect(await E(mailHost.host).identify('@pins', 'controller-for-lal')).toBe(controllerId);
    const printed = output.text();
    expect(printed).toContain('pinned "controller-for-lal" in @pins');
    expect(printed).toContain(
      'read ENDO_LLM_HOST, ENDO_LLM_MODEL, ENDO_LLM_AUTH_TOKEN as LAL_HOST, LAL_MODEL, LAL_AUTH_TOKEN',
    );
    expect(printed).toMatch(/passing LAL_HOST, LAL_MODEL, LAL_AUTH_TOKEN, LAL_PERSONA/);
    expect(printed).not.toContain(SECRET);
    expect(JSON.stringify(await hostInboxTexts(mailHost))).not.toContain(SECRET);
    // Every model call was let in with the token (the double refuses any other).
    expect(model.requests.filter(request => request.status === 200).length).toBeGreaterThanOrEqual(
      1,
    );
    expect(model.requests.every(request => request.status === 200)).toBe(true);

    // A second run keeps the agent and gives the newest CLI's command to restart it.
    await setupWith(output.say)(mailHost.host);
    expect(output.text()).toContain(
      'LAL_RESTART=1 endo run --UNCONFINED dist/setup.js --powers @agent',
    );
    expect(await E(mailHost.host).identify('controller-for-lal')).toBe(controllerId);
  });

  it('ENDO_LLM_* wins over LAL_*, ENDO_LLM_NAME names the guest, and only LAL_* names reach the agent', async () => {
    const mailHost = newMailHost();
    stubEnv({
      ENDO_LLM_HOST: CLOSED_HOST,
      LAL_HOST: 'http://127.0.0.1:8/v1',
      ENDO_LLM_MODEL: 'upstream-model',
      LAL_MODEL: 'our-model',
      ENDO_LLM_NAME: 'lal-two',
      LAL_FORM: '0',
    });
    const output = captureOutput();
    await setupWith(output.say, echoSource)(mailHost.host);
    const echo = await E(mailHost.host).lookup('controller-for-lal-two');
    const env = await E(echo as { env(): Record<string, string> }).env();
    expect(env).toEqual({
      LAL_HOST: CLOSED_HOST,
      LAL_MODEL: 'upstream-model',
      LAL_PERSONA: 'lal',
      LAL_NAME: 'lal-two',
    });
    expect(output.text()).toContain('(ENDO_LLM_HOST over LAL_HOST, ENDO_LLM_MODEL over LAL_MODEL)');
    expect(await hostInboxTexts(mailHost)).toContain(ECHO_STARTED);
  });

  it('refuses ENDO_LLM_AUTH_TOKEN with LAL_AUTH_TOKEN_FILE before creating anything', async () => {
    const mailHost = newMailHost();
    stubEnv({ ENDO_LLM_AUTH_TOKEN: SECRET, LAL_AUTH_TOKEN_FILE: '/etc/hostname' });
    const output = captureOutput();
    await expect(setupWith(output.say, echoSource)(mailHost.host)).rejects.toThrow(
      /ENDO_LLM_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both/,
    );
    expect(await E(mailHost.host).list()).not.toContain('lal');
    expect(output.text()).not.toContain(SECRET);
  });

  it('at f0a46042a the names stay AGENT, PINS and write', async () => {
    const mailHost = newMailHost('f0a46042a');
    stubEnv({ LAL_HOST: CLOSED_HOST });
    const output = captureOutput();
    await setupWith(output.say, echoSource)(mailHost.host);
    await setupWith(output.say, echoSource)(mailHost.host);
    expect(output.text()).toContain('pinned "controller-for-lal" in PINS');
    expect(output.text()).toContain(
      'LAL_RESTART=1 endo run --UNCONFINED dist/setup.js --powers AGENT',
    );
    expect(output.text()).not.toContain('agent manager');
    expect(await E(mailHost.host).has('setup-lal')).toBe(false);
  });
});

describe('setup-tools.js on the newest daemon', () => {
  it('makes the tools and a Fae guest that has them in tools/; a later run hands it new tools with storeIdentifier', async () => {
    const mailHost = newMailHost();
    stubEnv({ FAE_GUEST: 'fae', ENDO_LLM_HOST: CLOSED_HOST });
    const output = captureOutput();
    const setupTools = makeToolSetup({
      agentSpecifier: agentSource,
      toolSpecifier: toolSource,
      say: output.say,
    });
    await setupTools(mailHost.host);
    await waitForText(mailHost, 'Fae agent ready.');
    const fae = mailHost.guest('fae').powers;
    expect([...(await E(fae).list('tools'))].sort()).toEqual([
      'greet-tool',
      'math-tool',
      'timestamp-tool',
    ]);
    expect(output.text()).toContain('pinned "controller-for-fae" in @pins');
    expect(output.text()).not.toContain('could not prepare tools/');

    // A tool made later goes straight into the running guest's tools/.
    await E(mailHost.host).remove('math-tool');
    await E(fae).remove('tools', 'math-tool');
    await setupTools(mailHost.host);
    expect(output.text()).toMatch(/reusing it, gave it math-tool/);
    expect([...(await E(fae).list('tools'))].sort()).toEqual([
      'greet-tool',
      'math-tool',
      'timestamp-tool',
    ]);
    expect(textOf(await waitForText(mailHost, 'Fae agent ready.'))).toContain('Fae');
  });
});
