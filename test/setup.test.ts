// The setup scripts (setup.ts, setup-tools.ts) run against the mail host's
// host side, as `endo run --UNCONFINED … --powers AGENT` runs them against
// the daemon: process.env stubbed per test, console output captured.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { scriptedReplies, startModelServer, type ModelServer } from '../sim/model-server/index.js';
import type { HostPowers, MessageRecord } from '../sim/mail-host/index.js';
import { makeSetup, PASSED_ENV_NAMES } from '../setup.js';
import { makeToolSetup } from '../setup-tools.js';
import { pickEnv } from '../setup/passed-env.js';
import { SANDBOX_ENV_NAMES } from '../tools/lib/tool-settings.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { ECHO_STARTED } from './support/env-echo-caplet.js';
import { captureOutput, toolSource } from './support/setup-harness.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

type MailHost = ReturnType<typeof makeMailHost>;

// The sources stand in for the built modules: the mail host imports them, and vitest compiles them.
const agentSource = new URL('../agent.ts', import.meta.url).href;
const echoSource = new URL('./support/env-echo-caplet.ts', import.meta.url).href;

const SECRET = 'sk-test-9f8e7d6c5b4a-never-print-me';
// A loopback port nothing listens on: the agent greets before any model call.
const CLOSED_HOST = 'http://127.0.0.1:9/v1';
const EXAMPLE_TOOLS = ['greet-tool', 'math-tool', 'timestamp-tool'];
const ROOTED_TOOLS = [
  'read-file-tool',
  'write-file-tool',
  'edit-file-tool',
  'list-dir-tool',
  'run-command-tool',
];

/** Replaces the whole environment the scripts read: every variable they look at is unset first. */
const stubEnv = (values: Record<string, string>) => {
  for (const name of [
    ...PASSED_ENV_NAMES,
    ...SANDBOX_ENV_NAMES,
    'LAL_NAME',
    'LAL_RESTART',
    'LAL_PIN',
    'FAE_GUEST',
  ])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
};

const textOf = (message: MessageRecord): string =>
  message.type === 'package' ? message.strings.join('') : '';

const hostInboxTexts = async (mailHost: MailHost): Promise<string[]> =>
  (await E(mailHost.host).listMessages()).map(textOf);

const waitForText = (mailHost: MailHost, prefix: string) =>
  mailHost.waitForMessage(message => textOf(message).startsWith(prefix));

const has = (host: HostPowers, ...names: string[]) => E(host).has(...names);

const servers: ModelServer[] = [];
const running: MailHost[] = [];
const newMailHost = () => {
  const mailHost = makeMailHost();
  running.push(mailHost);
  return mailHost;
};

afterEach(async () => {
  // Stop every agent the test started, so none keeps following mail.
  for (const mailHost of running.splice(0)) {
    const names = await E(mailHost.host).list();
    for (const name of names.filter(each => each.startsWith('controller-for-'))) {
      // A plain reason: CapTP reports every Error it sends across, which is noise here.
      await mailHost.caplet(name)?.cancel('test over');
    }
  }
  await Promise.all(servers.splice(0).map(server => server.close()));
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('pickEnv', () => {
  it('keeps only listed variables that are set and non-empty, as a frozen record of strings', () => {
    const picked = pickEnv({
      LAL_HOST: 'http://x/v1',
      LAL_MODEL: '',
      LAL_MAX_TOKENS: undefined,
      OTHER: 'no',
      FAE_CWD: '/tmp',
    });
    expect(picked).toEqual({ LAL_HOST: 'http://x/v1', FAE_CWD: '/tmp' });
    expect(Object.isFrozen(picked)).toBe(true);
    expect(Object.values(picked).every(value => typeof value === 'string')).toBe(true);
  });
});

describe('setup.ts', () => {
  it('provisions lal and starts its agent, which greets HOST; the secret is never printed', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_AUTH_TOKEN: SECRET, LAL_MODEL: 'qwen3' });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: agentSource, say: output.say })(mailHost.host);
    const greeting = await waitForText(mailHost, 'Lal agent ready.');
    expect(greeting.type).toBe('package');
    for (const name of ['lal', 'profile-for-lal', 'controller-for-lal']) {
      expect(await has(mailHost.host, name)).toBe(true);
    }
    const printed = output.text();
    expect(printed).toContain('controller-for-lal');
    expect(printed).toContain('LAL_AUTH_TOKEN');
    expect(printed).toContain('LAL_HOST');
    expect(printed).not.toContain(SECRET);
    expect(JSON.stringify(await hostInboxTexts(mailHost))).not.toContain(SECRET);
  });

  it('passes only the listed variables that are set, with the persona and the guest name, and FAE_CWD made absolute', async () => {
    const mailHost = newMailHost();
    const root = makeTempFolder('setup');
    stubEnv({
      LAL_HOST: CLOSED_HOST,
      LAL_MODEL: '',
      LAL_MAX_TOKENS: '512',
      LAL_AUTH_TOKEN: SECRET,
      FAE_CWD: path.relative(process.cwd(), root),
      UNRELATED_SECRET: 'not-for-the-agent',
    });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: echoSource, say: output.say })(mailHost.host);
    const echo = await E(mailHost.host).lookup('controller-for-lal');
    const env = await E(echo as { env(): Record<string, string> }).env();
    expect(env).toEqual({
      LAL_HOST: CLOSED_HOST,
      LAL_MAX_TOKENS: '512',
      LAL_AUTH_TOKEN: SECRET,
      LAL_PERSONA: 'lal',
      LAL_NAME: 'lal',
      FAE_CWD: root,
    });
  });

  it('names a misspelt tool in a policy list with the nearest tool, as npm start does, and passes it as written', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_TOOLS_DENY: 'runComand, math' });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: echoSource, say: output.say })(mailHost.host);
    expect(output.text()).toContain(
      'warning: LAL_TOOLS_DENY names runComand, no tool known at start; did you mean runCommand?',
    );
    expect(output.text()).not.toMatch(/names math\b/);
    const echo = await E(mailHost.host).lookup('controller-for-lal');
    const env = await E(echo as { env(): Record<string, string> }).env();
    expect(env.LAL_TOOLS_DENY).toBe('runComand, math');
  });

  it('LAL_NAME=fae provisions fae with the fae persona', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_NAME: 'fae', LAL_HOST: CLOSED_HOST });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: agentSource, say: output.say })(mailHost.host);
    await waitForText(mailHost, 'Fae agent ready.');
    for (const name of ['fae', 'profile-for-fae', 'controller-for-fae']) {
      expect(await has(mailHost.host, name)).toBe(true);
    }
    expect(await has(mailHost.host, 'lal')).toBe(false);
  });

  it('a second run keeps the running agent and says how to restart; LAL_RESTART=1 replaces it', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_HOST: CLOSED_HOST });
    const output = captureOutput();
    const setup = makeSetup({ agentSpecifier: echoSource, say: output.say });
    await setup(mailHost.host);
    const firstId = await E(mailHost.host).identify('controller-for-lal');
    const first = mailHost.caplet('controller-for-lal');
    expect(first).toBeDefined();

    await setup(mailHost.host);
    expect(await E(mailHost.host).identify('controller-for-lal')).toBe(firstId);
    expect((await hostInboxTexts(mailHost)).filter(text => text === ECHO_STARTED)).toHaveLength(1);
    expect(output.text()).toMatch(/already exists.*no second one/);
    expect(output.text()).toContain('LAL_RESTART=1');

    vi.stubEnv('LAL_RESTART', '1');
    await setup(mailHost.host);
    expect(await E(mailHost.host).identify('controller-for-lal')).not.toBe(firstId);
    expect((await hostInboxTexts(mailHost)).filter(text => text === ECHO_STARTED)).toHaveLength(2);
    await first!.cancelled; // the old agent was stopped
  });

  it('leaves a guest name another made (it has no profile of ours) alone, and takes the next free one', async () => {
    const mailHost = newMailHost();
    await E(mailHost.host).provideGuest('lal', {});
    const before = await E(mailHost.host).identify('lal');
    stubEnv({});
    const output = captureOutput();
    await makeSetup({ agentSpecifier: echoSource, say: output.say })(mailHost.host);
    expect(await E(mailHost.host).identify('lal')).toBe(before);
    expect(await has(mailHost.host, 'profile-for-lal')).toBe(false);
    expect(await has(mailHost.host, 'controller-for-lal')).toBe(false);
    expect(await has(mailHost.host, 'controller-for-lal-2')).toBe(true);
    expect(output.text()).toContain('this agent is "lal-2"');
  });

  it('checks its input before creating anything', async () => {
    const mailHost = newMailHost();
    const output = captureOutput();
    const setup = makeSetup({ agentSpecifier: echoSource, say: output.say });
    stubEnv({ LAL_NAME: 'Lal!' });
    await expect(setup(mailHost.host)).rejects.toThrow(/LAL_NAME must be a pet name/);
    stubEnv({ LAL_PERSONA: 'wizard' });
    await expect(setup(mailHost.host)).rejects.toThrow(/LAL_PERSONA must be "lal" or "fae"/);
    stubEnv({ FAE_CWD: '/nonexistent/lal-fae-root' });
    await expect(setup(mailHost.host)).rejects.toThrow(/FAE_CWD does not exist/);
    stubEnv({});
    // The command quoted (Fail/q): the daemon's taming would show an unquoted one as "(a string)".
    await expect(setup(mailHost.host, 'lal', 'fae')).rejects.toThrow(
      /^Usage: "endo run --UNCONFINED dist\/setup\.js --powers [^"]+" \[guest-name\] \(or set LAL_NAME\); got 2 arguments$/,
    );
    // Without a build, the default dist/agent.js next to the script is missing.
    await expect(makeSetup({ say: output.say })(mailHost.host)).rejects.toThrow(/npm run build/);
    expect(await E(mailHost.host).list()).not.toContain('lal');
  });
});

describe('pinning (the daemon makes what PINS names again when it starts)', () => {
  /** A wire model that answers each message with "pong to <its marker word>", by the message's number. */
  const startPongModel = async () => {
    const server = await startModelServer({
      protocol: 'openai',
      reply: request => {
        const notice =
          request.messages.filter(message => message.role === 'user').at(-1)?.text ?? '';
        const messageNumber = Number([...notice.matchAll(/#(\d+)/g)].pop()?.[1]);
        const word = /\b(while-down|after-restart)\b/.exec(notice)?.[1] ?? 'something';
        return {
          toolCalls: [
            { name: 'reply', arguments: { messageNumber, strings: [`pong to ${word}`] } },
          ],
        };
      },
    });
    servers.push(server);
    return server;
  };

  it('after a daemon restart the pinned agent is made again without any look-up and answers mail that came meanwhile, once', async () => {
    const mailHost = newMailHost();
    const model = await startPongModel();
    stubEnv({ LAL_HOST: model.url, LAL_MODEL: 'test-model' });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: agentSource, say: output.say })(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    const controllerId = await E(mailHost.host).identify('controller-for-lal');
    expect(await E(mailHost.host).identify('PINS', 'controller-for-lal')).toBe(controllerId);
    expect(output.text()).toContain('pinned "controller-for-lal" in PINS');

    // The daemon goes down (the agent is cancelled), mail arrives, the daemon comes back.
    await mailHost.caplet('controller-for-lal')!.cancel('daemon stopping');
    await E(mailHost.host).send('lal', ['ping while-down'], [], []);
    await mailHost.restart();
    // No look-up of the agent from here on: only mail.
    await mailHost.waitForMessage(message => textOf(message) === 'pong to while-down');
    await E(mailHost.host).send('lal', ['ping after-restart'], [], []);
    await mailHost.waitForMessage(message => textOf(message) === 'pong to after-restart');
    // Mail is served one message at a time, so by now a second answer to the first would have come.
    const texts = await hostInboxTexts(mailHost);
    expect(texts.filter(text => text === 'pong to while-down')).toHaveLength(1);
    // Revived with the same model and settings: it does not greet again (issue 23, defect 8).
    expect(texts.filter(text => text.startsWith('Lal agent ready.'))).toHaveLength(1);
    const chats = model.requests.filter(request => request.normalized !== undefined);
    expect(chats).toHaveLength(2);
  });

  it('a re-run keeps the pin, LAL_RESTART=1 pins the new agent (the old one is collected), LAL_PIN=0 unpins', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_HOST: CLOSED_HOST });
    const output = captureOutput();
    const setup = makeSetup({ agentSpecifier: echoSource, say: output.say });
    await setup(mailHost.host);
    const first = mailHost.caplet('controller-for-lal')!;
    const pinned = () => E(mailHost.host).identify('PINS', 'controller-for-lal');
    expect(await pinned()).toBe(first.id);

    await setup(mailHost.host);
    expect(await pinned()).toBe(first.id);
    expect(await E(mailHost.host).list('PINS')).toEqual(['controller-for-lal']);

    vi.stubEnv('LAL_RESTART', '1');
    await setup(mailHost.host);
    const second = await E(mailHost.host).identify('controller-for-lal');
    expect(second).not.toBe(first.id);
    expect(await pinned()).toBe(second);
    await first.cancelled;
    // The old agent is named nowhere now: a restart does not bring it back, the pinned new one comes back.
    await mailHost.restart();
    expect((await hostInboxTexts(mailHost)).filter(text => text === ECHO_STARTED)).toHaveLength(3);

    vi.stubEnv('LAL_RESTART', '0');
    vi.stubEnv('LAL_PIN', '0');
    await setup(mailHost.host);
    expect(await pinned()).toBeUndefined();
    expect(output.text()).toContain('LAL_PIN=0: unpinned "controller-for-lal"');
    await mailHost.restart();
    expect((await hostInboxTexts(mailHost)).filter(text => text === ECHO_STARTED)).toHaveLength(3);
    // Still there: a look-up makes it again.
    await E(mailHost.host).lookup('controller-for-lal');
    expect((await hostInboxTexts(mailHost)).filter(text => text === ECHO_STARTED)).toHaveLength(4);
  });
});

describe('setup-tools.ts', () => {
  const makeTools = (say: (line: string) => void) =>
    makeToolSetup({ agentSpecifier: agentSource, toolSpecifier: toolSource, say });

  it('creates greet, math and timestamp as working FaeTools, and no file tools without FAE_CWD', async () => {
    const mailHost = newMailHost();
    stubEnv({});
    const output = captureOutput();
    await makeTools(output.say)(mailHost.host);
    for (const name of EXAMPLE_TOOLS) expect(await has(mailHost.host, name)).toBe(true);
    for (const name of ROOTED_TOOLS) expect(await has(mailHost.host, name)).toBe(false);
    const math = (await E(mailHost.host).lookup('math-tool')) as FaeTool;
    expect((await E(math).schema()).function.name).toBe('math');
    expect(await E(math).execute({ operation: 'multiply', a: 6, b: 7 })).toMatchObject({
      result: 42,
    });
    expect(output.text()).toContain('FAE_CWD is not set');
    expect(output.text()).toContain('@calc:math-tool');
    expect(await has(mailHost.host, 'fae')).toBe(false);
  });

  it('with FAE_CWD creates the file tools rooted there; a second run duplicates nothing', async () => {
    const mailHost = newMailHost();
    const root = makeTempFolder('tools');
    mkdirSync(path.join(root, 'notes'));
    writeFileSync(path.join(root, 'notes', 'hello.txt'), 'hello from the root\n');
    stubEnv({ FAE_CWD: path.relative(process.cwd(), root) });
    const output = captureOutput();
    const setupTools = makeTools(output.say);
    await setupTools(mailHost.host);
    for (const name of [...EXAMPLE_TOOLS, ...ROOTED_TOOLS])
      expect(await has(mailHost.host, name)).toBe(true);
    const readFile = (await E(mailHost.host).lookup('read-file-tool')) as FaeTool;
    expect(await E(readFile).execute({ path: 'notes/hello.txt' })).toMatchObject({
      content: 'hello from the root\n',
    });

    const ids = await Promise.all(
      [...EXAMPLE_TOOLS, ...ROOTED_TOOLS].map(name => E(mailHost.host).identify(name)),
    );
    const namesBefore = await E(mailHost.host).list();
    await setupTools(mailHost.host);
    expect(await E(mailHost.host).list()).toEqual(namesBefore);
    expect(
      await Promise.all(
        [...EXAMPLE_TOOLS, ...ROOTED_TOOLS].map(name => E(mailHost.host).identify(name)),
      ),
    ).toEqual(ids);
    expect(output.text()).toContain('"math-tool" already exists; keeping it');
  });

  it('warns when it provisions run-command-tool without a working sandbox, and passes the sandbox settings to it alone', async () => {
    const mailHost = newMailHost();
    const root = makeTempFolder('tools');
    stubEnv({ FAE_CWD: root, FAE_SANDBOX_MAX_PROCESSES: '32' });
    vi.stubEnv('PATH', ''); // bubblewrap is looked up on PATH
    const output = captureOutput();
    await makeTools(output.say)(mailHost.host);
    expect(output.text()).toMatch(
      /warning: run-command-tool has no working sandbox here and will refuse to run commands: bubblewrap \(bwrap\) was not found on PATH: install bubblewrap/,
    );
    expect(output.text()).toContain(
      'created "run-command-tool" (passed FAE_CWD, FAE_SANDBOX_MAX_PROCESSES)',
    );
    expect(output.text()).toContain('created "read-file-tool" (passed FAE_CWD)');

    const optedOut = newMailHost();
    stubEnv({ FAE_CWD: root, FAE_RUN_COMMAND_UNSANDBOXED: '1' });
    const quiet = captureOutput();
    await makeTools(quiet.say)(optedOut.host);
    expect(quiet.text()).toContain(
      'warning: FAE_RUN_COMMAND_UNSANDBOXED=1: run-command-tool runs commands unconfined',
    );

    stubEnv({ FAE_CWD: root, FAE_SANDBOX_MEMORY_MB: 'lots' });
    await expect(makeTools(quiet.say)(newMailHost().host)).rejects.toThrow(
      /FAE_SANDBOX_MEMORY_MB must be a whole number/,
    );
  });

  it('refuses a FAE_CWD that does not exist before creating anything', async () => {
    const mailHost = newMailHost();
    stubEnv({ FAE_CWD: path.join(tmpdir(), 'lal-fae-no-such-root', 'x') });
    const output = captureOutput();
    await expect(makeTools(output.say)(mailHost.host)).rejects.toThrow(/FAE_CWD does not exist/);
    expect(await has(mailHost.host, 'math-tool')).toBe(false);
  });

  it('FAE_GUEST=fae provisions a Fae guest whose agent starts with the tools in tools/', async () => {
    const mailHost = newMailHost();
    stubEnv({ FAE_GUEST: 'fae', LAL_HOST: CLOSED_HOST, LAL_AUTH_TOKEN: SECRET });
    const output = captureOutput();
    await makeTools(output.say)(mailHost.host);
    await waitForText(mailHost, 'Fae agent ready.');
    for (const name of ['fae', 'profile-for-fae', 'controller-for-fae']) {
      expect(await has(mailHost.host, name)).toBe(true);
    }
    const fae = mailHost.guest('fae').powers;
    expect([...(await E(fae).list('tools'))].sort()).toEqual(EXAMPLE_TOOLS);
    for (const name of EXAMPLE_TOOLS) expect(await E(fae).has(name)).toBe(false);
    expect(output.text()).not.toContain(SECRET);

    // Later, with FAE_CWD: the running agent is kept and gets the new tools straight into tools/.
    const root = makeTempFolder('tools');
    vi.stubEnv('FAE_CWD', root);
    const controllerId = await E(mailHost.host).identify('controller-for-fae');
    await makeTools(output.say)(mailHost.host);
    expect(await E(mailHost.host).identify('controller-for-fae')).toBe(controllerId);
    expect([...(await E(fae).list('tools'))].sort()).toEqual(
      [...EXAMPLE_TOOLS, ...ROOTED_TOOLS].sort(),
    );
  });
});

describe('LAL_AUTH_TOKEN_FILE: the daemon keeps a path, never the token', () => {
  /** The host as setup sees it, recording everything handed to the daemon. */
  const recordingHost = (host: HostPowers) => {
    const handed: string[] = [];
    const forward =
      (name: string) =>
      (...args: unknown[]) => {
        handed.push(`${name} ${inspect(args, { depth: 10 })}`);
        return (E(host) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(
          ...args,
        );
      };
    const names = [
      'has',
      'lookup',
      'list',
      'identify',
      'provideGuest',
      'makeUnconfined',
      'cancel',
      'write',
      'move',
      'remove',
      'send',
      'makeDirectory',
      'copy',
      'storeValue',
    ];
    return {
      host: Object.fromEntries(names.map(name => [name, forward(name)])) as unknown as HostPowers,
      handed,
    };
  };

  it('setup passes LAL_AUTH_TOKEN_FILE as an absolute path; the agent reads the key, authenticates at the wire, and never stores, logs or mails it', async () => {
    const token = 'sk-file-token-5e4d3c2b1a-never-at-rest';
    const folder = makeTempFolder('token');
    writeFileSync(path.join(folder, 'token'), `${token}\n`, { mode: 0o600 });
    const server = await startModelServer({
      protocol: 'openai',
      apiKey: token,
      reply: scriptedReplies(
        [
          { text: `your key is ${token}` },
          {
            toolCalls: [
              { name: 'send', arguments: { recipient: 'HOST', strings: [`psst ${token}`] } },
            ],
          },
        ],
        { text: 'sent' },
      ),
    });
    try {
      const mailHost = newMailHost();
      const recording = recordingHost(mailHost.host);
      // Relative to the script's directory, as a person would type it.
      stubEnv({ LAL_HOST: server.url, LAL_AUTH_TOKEN_FILE: 'token', LAL_LOG: 'debug' });
      const output = captureOutput();
      await makeSetup({ agentSpecifier: agentSource, say: output.say, cwd: folder })(
        recording.host,
      );
      await waitForText(mailHost, 'Lal agent ready.');
      expect(recording.handed.join('\n')).toContain(path.join(folder, 'token'));
      expect(recording.handed.join('\n')).not.toContain(token);

      await E(mailHost.host).send('lal', ['what is my key?'], [], []);
      const answer = await waitForText(mailHost, 'your key is');
      expect(textOf(answer)).toBe('your key is [redacted]');
      await E(mailHost.host).send('lal', ['whisper it'], [], []);
      expect(textOf(await waitForText(mailHost, 'psst'))).toBe('psst [redacted]');
      // The wire double refuses any other key: both model calls were let in with the file's.
      expect(
        server.requests.filter(request => request.status === 200).length,
      ).toBeGreaterThanOrEqual(2);

      const lal = mailHost.guest('lal').powers;
      await expect
        .poll(async () => String(await E(lal).lookup(['agent-state', 'memory'])))
        .toContain('psst');
      expect(String(await E(lal).lookup(['agent-state', 'memory']))).not.toContain(token);
      expect(output.text()).not.toContain(token);
      expect(JSON.stringify(await hostInboxTexts(mailHost))).not.toContain(token);
    } finally {
      await server.close();
    }
  });

  it('refuses both LAL_AUTH_TOKEN and LAL_AUTH_TOKEN_FILE, or a file that cannot be read, before creating anything', async () => {
    const mailHost = newMailHost();
    const output = captureOutput();
    const setup = makeSetup({ agentSpecifier: echoSource, say: output.say });
    stubEnv({ LAL_AUTH_TOKEN: SECRET, LAL_AUTH_TOKEN_FILE: '/etc/hostname' });
    await expect(setup(mailHost.host)).rejects.toThrow(
      /LAL_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both/,
    );
    stubEnv({ LAL_AUTH_TOKEN_FILE: '/nonexistent/lal-fae-token' });
    await expect(setup(mailHost.host)).rejects.toThrow(
      /LAL_AUTH_TOKEN_FILE must name a readable file/,
    );
    expect(await E(mailHost.host).list()).not.toContain('lal');
  });

  it('says how to keep the token out of the daemon when LAL_AUTH_TOKEN itself is handed over', async () => {
    const mailHost = newMailHost();
    stubEnv({ LAL_HOST: CLOSED_HOST, LAL_AUTH_TOKEN: SECRET });
    const output = captureOutput();
    await makeSetup({ agentSpecifier: echoSource, say: output.say })(mailHost.host);
    expect(output.text()).toContain('LAL_AUTH_TOKEN_FILE=<path>');
    expect(output.text()).not.toContain(SECRET);
  });
});
