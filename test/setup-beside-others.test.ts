// Setup and its agents as a week of use in both real daemons found them
// (issue 23): log lines that name the guest (defect 6), a pinned agent that
// was cancelled (defect 5), upstream's own setup having run first (defect 4),
// and restarts that add greetings and forms (defect 8). Run as `endo run
// --UNCONFINED dist/setup.js` runs them, against the mail host (the daemon
// double) in the profile each defect was seen in; the agents run under
// lockdown through make().
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type DaemonProfile, type MailHost } from '../sim/mail-host/index.js';
import { makeSetup } from '../setup.js';
import { scriptMain } from '../setup/script-main.js';
import { runUpstreamSetup } from './support/upstream-lal.js';
import {
  agentSource,
  captureOutput,
  managerSource,
  stubEnv,
  waitForText,
} from './support/setup-harness.js';

const CLOSED_HOST = 'http://127.0.0.1:9/v1';

const running: MailHost[] = [];
const newMailHost = (profile: DaemonProfile = 'newest') => {
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
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const setupWith = (say: (line: string) => void) =>
  makeSetup({ agentSpecifier: agentSource, managerSpecifier: managerSource, say });

describe('log lines name the guest (defect 6)', () => {
  it('two agents of one persona log as themselves, not as [lal]', async () => {
    const mailHost = newMailHost('f0a46042a');
    const output = captureOutput();
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_NAME: 'dave' });
    await setupWith(output.say)(mailHost.host);
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_NAME: 'erin' });
    await setupWith(output.say)(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    await E(mailHost.host).send('dave', ['hello dave'], [], []);
    await E(mailHost.host).send('erin', ['hello erin'], [], []);
    // Each agent answers (it cannot reach a model) and logs the turn.
    const answered = new Set<bigint>();
    for (const _ of ['dave', 'erin']) {
      const answer = await mailHost.waitForMessage(
        message =>
          message.type === 'package' &&
          !answered.has(message.number) &&
          message.strings.join('').startsWith('I stopped working on this'),
      );
      answered.add(answer.number);
    }
    const lines = output
      .text()
      .split('\n')
      .filter(line => /^\[[a-z-]+\] /.test(line));
    expect(lines.some(line => line.startsWith('[dave] '))).toBe(true);
    expect(lines.some(line => line.startsWith('[erin] '))).toBe(true);
    expect(lines.filter(line => line.startsWith('[lal] '))).toEqual([]);
  });
});

describe('greetings on restart (defect 8)', () => {
  it('a restarted agent greets again only when its model or settings changed', async () => {
    const mailHost = newMailHost('f0a46042a');
    const output = captureOutput();
    const greetings = async () =>
      (await E(mailHost.host).listMessages())
        .map(message => (message.type === 'package' ? message.strings.join('') : ''))
        .filter(text => text.startsWith('Lal agent ready.'));
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_MODEL: 'model-one' });
    await setupWith(output.say)(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    // Replaced with the same settings: it serves mail, and says nothing new.
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_MODEL: 'model-one', LAL_RESTART: '1' });
    await setupWith(output.say)(mailHost.host);
    await E(mailHost.host).send('lal', ['are you there?'], [], []);
    await waitForText(mailHost, 'I stopped working on this');
    expect(await greetings()).toHaveLength(1);
    // Another model: it says so.
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_MODEL: 'model-two', LAL_RESTART: '1' });
    await setupWith(output.say)(mailHost.host);
    await mailHost.waitForMessage(
      message => message.type === 'package' && message.strings.join('').includes('model-two'),
    );
    const said = await greetings();
    expect(said).toHaveLength(2);
    expect(said[1]).toContain('model-two');
  });
});

describe('a pinned agent that was cancelled (defect 5, newest daemon)', () => {
  it('stays down in the daemon until provided; setup says it was not running and starts it', async () => {
    const mailHost = newMailHost('newest');
    const output = captureOutput();
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_NAME: 'dave', LAL_FORM: '0' });
    await setupWith(output.say)(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    await E(mailHost.host).cancel('controller-for-dave');
    // The newest daemon revives @pins only at start: the cancelled agent serves no mail.
    await E(mailHost.host).send('dave', ['anyone home?'], [], []);
    expect(mailHost.caplet('controller-for-dave')).toBeUndefined();
    await setupWith(output.say)(mailHost.host);
    expect(output.text()).not.toContain('the dave agent is running');
    expect(output.text()).toMatch(/the dave agent was not running; it is started again/);
    await waitForText(mailHost, 'I stopped working on this');
  });
});

describe("beside upstream Lal's setup (defect 4, newest daemon)", () => {
  it('our setup chooses free names and touches and pins nothing of upstream', async () => {
    const mailHost = newMailHost('newest');
    await runUpstreamSetup(mailHost.host);
    const upstreamIds = await Promise.all(
      ['lal', 'profile-for-lal', 'controller-for-lal', 'setup-lal'].map(name =>
        E(mailHost.host).identify(name),
      ),
    );
    const output = captureOutput();
    stubEnv({ LAL_HOST: CLOSED_HOST });
    await makeSetup({
      agentSpecifier: agentSource,
      managerSpecifier: managerSource,
      say: output.say,
    })(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    // Upstream's names still name what upstream made, and none of it is pinned.
    expect(
      await Promise.all(
        ['lal', 'profile-for-lal', 'controller-for-lal', 'setup-lal'].map(name =>
          E(mailHost.host).identify(name),
        ),
      ),
    ).toEqual(upstreamIds);
    const pinned = await E(mailHost.host).list('@pins');
    expect(pinned).not.toContain('controller-for-lal');
    expect(pinned).toContain('controller-for-lal-2');
    expect(pinned).toContain('controller-for-setup-lal-2');
    const printed = output.text();
    expect(printed).not.toContain('the lal agent is running');
    expect(printed).toContain('this agent is "lal-2"');
    // Its worker is named after the guest it became (seen in a real newest daemon: "worker-for-lal").
    expect(printed).toContain('it runs in a worker of its own, "worker-for-lal-2"');
    expect(await E(mailHost.host).has('worker-for-lal-2')).toBe(true);
    expect(await E(mailHost.host).has('worker-for-lal')).toBe(false);
    // Ours answers as lal-2, and a second run finds it again (no lal-3).
    await E(mailHost.host).send('lal-2', ['hello'], [], []);
    await waitForText(mailHost, 'I stopped working on this');
    await makeSetup({
      agentSpecifier: agentSource,
      managerSpecifier: managerSource,
      say: output.say,
    })(mailHost.host);
    expect(await E(mailHost.host).has('lal-3')).toBe(false);
    expect(output.text()).toContain('the lal-2 agent is running');
  });

  it('after an upgrade, its own manager from before the marker is known as its own (no setup-lal-2)', async () => {
    const mailHost = newMailHost('newest');
    const output = captureOutput();
    stubEnv({ LAL_HOST: CLOSED_HOST });
    const setup = makeSetup({
      agentSpecifier: agentSource,
      managerSpecifier: managerSource,
      say: output.say,
    });
    await setup(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    // A release before the marker left no record of what it made.
    await E(mailHost.host).remove('lal-fae-agents');
    await setup(mailHost.host);
    for (const name of ['setup-lal-2', 'lal-2', 'controller-for-setup-lal-2'])
      expect(await E(mailHost.host).has(name)).toBe(false);
    expect(output.text()).not.toContain('was made by someone else');
  });

  it('a failure is one line and exit code 1, never a stack trace', async () => {
    const mailHost = newMailHost('newest');
    const said: string[] = [];
    stubEnv({ LAL_NAME: 'Not A Pet Name' });
    const exitCode = process.exitCode;
    try {
      await scriptMain(makeSetup({ agentSpecifier: agentSource, say: () => {} }), line =>
        said.push(line),
      )(mailHost.host);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = exitCode;
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^setup failed: LAL_NAME must be a pet name/);
    expect(said.join('\n')).not.toMatch(/\n\s+at /);
  });
});
