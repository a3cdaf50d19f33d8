// The chat UI's "Add an agent" form on the newest daemon, as upstream Lal's
// manager sends and answers it: setup.js provisions the manager (guest
// `setup-lal`, given the host's powers as `host-agent`), which sends @host the
// form; each submission makes and starts an agent of ours with the submitted
// host, model and token. Everything runs under lockdown through make()/E() in
// the mail host's 'newest' profile; the model is the OpenAI wire double.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import type { ModelServer } from '../sim/model-server/index.js';
import { makeSetup } from '../setup.js';
import {
  agentSource,
  captureOutput,
  hostInboxTexts,
  managerSource,
  startPongModel,
  stubEnv,
  textOf,
  waitForText,
} from './support/setup-harness.js';

const SECRET = 'sk-form-token-1f2e3d4c5b6a-never-echo';

interface FormRecord {
  type: string;
  number: bigint;
  from: string;
  description?: string;
  fields?: { name: string; label: string; default?: string; secret?: boolean }[];
}

const servers: ModelServer[] = [];
const running: MailHost[] = [];

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

/** A newest-profile host provisioned by setup.js (with its manager), a pong model that lets in only SECRET. */
const provisioned = async () => {
  const mailHost = makeMailHost({ profile: 'newest' });
  running.push(mailHost);
  const model = await startPongModel(SECRET);
  servers.push(model);
  stubEnv({ LAL_HOST: model.url, LAL_MODEL: 'test-model', LAL_AUTH_TOKEN: SECRET });
  const output = captureOutput();
  await makeSetup({
    agentSpecifier: agentSource,
    managerSpecifier: managerSource,
    say: output.say,
  })(mailHost.host);
  const { number } = await mailHost.waitForMessage(message => message.type === 'form');
  // As the host's powers show it (the sender as an endo:// locator).
  const form = ((await E(mailHost.host).listMessages()) as unknown as FormRecord[]).find(
    message => message.number === number,
  )!;
  return { mailHost, model, output, form };
};

const submit = (mailHost: MailHost, form: FormRecord, values: Record<string, string>) =>
  E(
    mailHost.host as unknown as { submit(n: bigint, v: Record<string, string>): Promise<void> },
  ).submit(form.number, values);

describe('the "Add an agent" form (newest daemon)', () => {
  it("setup.js starts the manager, which sends @host the form with upstream Lal's four fields, the token secret", async () => {
    const { mailHost, form, output } = await provisioned();
    expect(form.description).toBe('Add an agent (lal-fae: Lal or Fae)');
    expect(await E(mailHost.host).reverseLocate(form.from)).toEqual(['setup-lal']);
    expect(form.fields!.map(field => [field.name, field.default, field.secret ?? false])).toEqual([
      ['name', undefined, false],
      ['host', 'http://localhost:11434/v1', false],
      ['model', 'qwen3', false],
      ['authTokenName', 'none', false],
      ['authToken', 'ollama', true],
    ]);
    expect(await E(mailHost.host).identify('@pins', 'controller-for-setup-lal')).toBe(
      await E(mailHost.host).identify('controller-for-setup-lal'),
    );
    expect(output.text()).toContain('"Add an agent" form');
  });

  it('a submission makes and starts an agent with the submitted host, model and token, which answers a ping; the token is in no reply, help(), log or store', async () => {
    const { mailHost, form, output, model } = await provisioned();
    await submit(mailHost, form, {
      name: 'bob',
      host: model.url,
      model: 'test-model',
      authToken: SECRET,
    });
    await waitForText(mailHost, 'Agent "bob" is now running.');
    await waitForText(mailHost, 'Lal agent ready.');
    await E(mailHost.host).send('bob', ['ping bob'], [], []);
    await waitForText(mailHost, 'pong: ping bob');
    // Pinned like an agent setup.js starts: it comes back after a restart.
    expect(await E(mailHost.host).identify('@pins', 'controller-for-bob')).toBe(
      await E(mailHost.host).identify('controller-for-bob'),
    );

    // The same name again: not made twice.
    await submit(mailHost, form, {
      name: 'bob',
      host: model.url,
      model: 'test-model',
      authToken: SECRET,
    });
    await waitForText(mailHost, 'Agent "bob" already exists.');
    // A name that is not a pet name: an error, without the token.
    await submit(mailHost, form, {
      name: 'Bob!',
      host: model.url,
      model: 'test-model',
      authToken: SECRET,
    });
    const refused = await waitForText(mailHost, 'Error creating agent:');
    expect(textOf(refused)).toMatch(/The agent name must be a pet name/);

    const manager = await E(mailHost.host).lookup('controller-for-setup-lal');
    const managerHelp = await E(manager as { help(): string }).help();
    expect(managerHelp).toContain('bob');
    const bob = await E(mailHost.host).lookup('controller-for-bob');
    const bobHelp = await E(bob as { help(): string }).help();

    // What each guest keeps in its store, read back value by value.
    const storeText = async (guestName: string) => {
      const powers = mailHost.guest(guestName).powers;
      const names = ((await E(powers).list()) as string[]).filter(name => !name.startsWith('@'));
      const values = await Promise.all(
        names.map(name => Promise.resolve(E(powers).lookup(name)).catch(() => undefined)),
      );
      return (
        JSON.stringify(values, (_key, value: unknown) =>
          typeof value === 'bigint' ? String(value) : value,
        ) + names.join(',')
      );
    };
    const everywhere = [
      JSON.stringify(await hostInboxTexts(mailHost)),
      managerHelp,
      bobHelp,
      output.text(),
      await storeText('setup-lal'),
      await storeText('bob'),
    ];
    for (const text of everywhere) expect(text).not.toContain(SECRET);
    // The agent got it: every call to the model was let in with the token.
    expect(model.requests.every(request => request.status === 200)).toBe(true);
  });

  it('the key by the name of a value the HOST stored: the new agent reads it, and the chat, the answers and the logs never hold it', async () => {
    const { mailHost, form, output, model } = await provisioned();
    await E(mailHost.host).storeValue(SECRET, 'my-key');
    // As the chat UI submits it: the token field left to its default.
    await submit(mailHost, form, {
      name: 'bob',
      host: model.url,
      model: 'test-model',
      authTokenName: 'my-key',
      authToken: 'ollama',
    });
    await waitForText(mailHost, 'Agent "bob" is now running.');
    await E(mailHost.host).send('bob', ['ping bob'], [], []);
    await waitForText(mailHost, 'pong: ping bob');
    // The model lets in only SECRET: bob read the stored key.
    expect(model.requests.every(request => request.status === 200)).toBe(true);
    const messages = JSON.stringify(
      await E(mailHost.host).listMessages(),
      (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value),
    );
    expect(messages).toContain('my-key');
    for (const text of [messages, output.text()]) expect(text).not.toContain(SECRET);

    // A name that holds no text, and one that names nothing: a plain error, and no agent.
    await E(mailHost.host).storeValue(harden({ key: SECRET }), 'not-text');
    await submit(mailHost, form, {
      name: 'carol',
      host: model.url,
      model: 'test-model',
      authTokenName: 'not-text',
      authToken: 'ollama',
    });
    const notText = await waitForText(
      mailHost,
      'Error creating agent: "not-text" is not a stored text',
    );
    await submit(mailHost, form, {
      name: 'dave',
      host: model.url,
      model: 'test-model',
      authTokenName: 'no-such',
      authToken: 'ollama',
    });
    await waitForText(mailHost, 'Error creating agent: you have no value named "no-such"');
    expect(textOf(notText)).not.toContain(SECRET);
    expect(await E(mailHost.host).has('controller-for-carol')).toBe(false);
  });

  it('after a daemon restart the manager and the agent it made come back, without a second form or greeting (issue 23, defect 8); the old submission is not answered again', async () => {
    const { mailHost, form, model } = await provisioned();
    await submit(mailHost, form, {
      name: 'bob',
      host: model.url,
      model: 'test-model',
      authToken: SECRET,
    });
    await waitForText(mailHost, 'Agent "bob" is now running.');
    // lal's and bob's greetings.
    const greeted = new Set<bigint>();
    for (const _ of ['lal', 'bob']) {
      const greeting = await mailHost.waitForMessage(
        message =>
          message.type === 'package' &&
          message.strings.join('').startsWith('Lal agent ready.') &&
          !greeted.has(message.number),
      );
      greeted.add(greeting.number);
    }
    for (const round of ['a', 'b']) {
      for (const name of ['controller-for-bob', 'controller-for-setup-lal', 'controller-for-lal'])
        await mailHost.caplet(name)?.cancel('daemon stopping');
      await mailHost.restart();
      await E(mailHost.host).send('bob', [`ping again-${round}`], [], []);
      await waitForText(mailHost, `pong: ping again-${round}`);
    }
    // The manager came back and still answers its one form.
    await submit(mailHost, form, {
      name: 'carol',
      host: model.url,
      model: 'test-model',
      authToken: SECRET,
    });
    await waitForText(mailHost, 'Agent "carol" is now running.');
    const texts = await hostInboxTexts(mailHost);
    expect(texts.filter(text => text === 'Agent "bob" is now running.')).toHaveLength(1);
    expect(texts.filter(text => text.startsWith('Agent "bob"'))).toHaveLength(1);
    const messages = await E(mailHost.host).listMessages();
    expect(messages.filter(message => message.type === 'form')).toHaveLength(1);
    // lal and bob greeted once each, before the restarts; carol once when made (before its first answer).
    await E(mailHost.host).send('carol', ['ping carol'], [], []);
    await waitForText(mailHost, 'pong: ping carol');
    const greetings = (await hostInboxTexts(mailHost)).filter(text =>
      text.startsWith('Lal agent ready.'),
    );
    expect(greetings).toHaveLength(3);
  });

  it('LAL_FORM=0 leaves the manager out', async () => {
    const mailHost = makeMailHost({ profile: 'newest' });
    running.push(mailHost);
    stubEnv({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_FORM: '0' });
    const output = captureOutput();
    await makeSetup({
      agentSpecifier: agentSource,
      managerSpecifier: managerSource,
      say: output.say,
    })(mailHost.host);
    await waitForText(mailHost, 'Lal agent ready.');
    expect(await E(mailHost.host).has('setup-lal')).toBe(false);
    expect(await E(mailHost.host).has('controller-for-setup-lal')).toBe(false);
  });
});
