// A defect seen in the real daemon (endojs/endo f0a46042a): `FAE_GUEST=fae
// setup-tools.js` logged "could not prepare tools/: No reference exists at path
// …/formulas/…". The daemon's makeDirectory names a directory it has just made
// without holding it against collection, and a collection that runs in between
// (every guest or host call ends with one: here the setup script pinning the
// agent as it starts) takes it; the name `tools` is left pointing at a formula
// that is gone. The mail host reproduces that window
// (collectDuringNextMakeDirectory); the agent runs under lockdown through make().
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import { makeToolSetup } from '../setup-tools.js';
import {
  agentSource,
  captureOutput,
  stubEnv,
  toolSource,
  waitForText,
} from './support/setup-harness.js';

const EXAMPLE_TOOLS = ['greet-tool', 'math-tool', 'timestamp-tool'];

const running: MailHost[] = [];
afterEach(async () => {
  for (const mailHost of running.splice(0)) {
    const names = await E(mailHost.host).list();
    for (const name of names.filter(each => each.startsWith('controller-for-')))
      await mailHost.caplet(name)?.cancel('test over');
  }
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const newMailHost = () => {
  const mailHost = makeMailHost();
  running.push(mailHost);
  return mailHost;
};

describe('tools/ when the daemon collects the directory just made (f0a46042a)', () => {
  it("the double shows the daemon's symptom: makeDirectory returns, the name then fails with No reference exists", async () => {
    const mailHost = newMailHost();
    await E(mailHost.host).provideGuest('fae', { agentName: 'profile-for-fae' });
    const fae = mailHost.guest('fae').powers;
    mailHost.collectDuringNextMakeDirectory();
    await E(fae).makeDirectory('tools');
    expect(await E(fae).has('tools')).toBe(true);
    await expect(E(fae).list('tools')).rejects.toThrow(
      /No reference exists at path \/endo-state\/formulas\/[0-9a-f]{2}\/[0-9a-f]+\.json/,
    );
  });

  it('FAE_GUEST=fae setup-tools: the agent makes tools/ again and moves the introduced tools into it', async () => {
    const mailHost = newMailHost();
    stubEnv({ FAE_GUEST: 'fae', LAL_HOST: 'http://127.0.0.1:9/v1' });
    const output = captureOutput();
    mailHost.collectDuringNextMakeDirectory();
    await makeToolSetup({
      agentSpecifier: agentSource,
      toolSpecifier: toolSource,
      say: output.say,
    })(mailHost.host);
    await waitForText(mailHost, 'Fae agent ready.');
    const fae = mailHost.guest('fae').powers;
    expect([...(await E(fae).list('tools'))].sort()).toEqual(EXAMPLE_TOOLS);
    for (const name of EXAMPLE_TOOLS) expect(await E(fae).has(name)).toBe(false);
    expect(output.text()).not.toContain('could not prepare tools/');
    expect(output.text()).toContain('the daemon collected the tools/ just made');
  });

  it('a tools name left pointing at a collected directory by an earlier run is made again at start', async () => {
    const mailHost = newMailHost();
    await E(mailHost.host).provideGuest('fae', { agentName: 'profile-for-fae' });
    const fae = mailHost.guest('fae').powers;
    mailHost.collectDuringNextMakeDirectory();
    await E(fae).makeDirectory('tools');
    stubEnv({ FAE_GUEST: 'fae', LAL_HOST: 'http://127.0.0.1:9/v1' });
    const output = captureOutput();
    // The guest exists (made above): setup hands it the tools at its top level, its tools/ being gone.
    await makeToolSetup({
      agentSpecifier: agentSource,
      toolSpecifier: toolSource,
      say: output.say,
    })(mailHost.host);
    await waitForText(mailHost, 'Fae agent ready.');
    expect([...(await E(fae).list('tools'))].sort()).toEqual(EXAMPLE_TOOLS);
    expect(output.text()).not.toContain('could not prepare tools/');
    expect(output.text()).toContain('tools/ named a directory the daemon had collected');
  });
});
