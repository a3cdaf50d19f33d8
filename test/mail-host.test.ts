import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { E, Far } from '@endo/far';
import { describe, expect, it } from 'vitest';
import { isFormulaId, makeMailHost } from '../sim/mail-host/index.js';
import type {
  CapletContext,
  GuestPowers,
  MailHost,
  MessageRecord,
  PackageMessage,
  RemoteIterator,
} from '../sim/mail-host/index.js';
import { useTempFolders } from './support/temp-folders.js';

interface Started {
  mailHost: MailHost;
  powers: Promise<GuestPowers>;
  context: CapletContext;
  makes: number;
}

/** A mail host with guest `lal` and a tiny caplet on it that hands out what make received. */
const startLal = async (mailHost = makeMailHost()): Promise<Started> => {
  await mailHost.host.provideGuest('lal', { agentName: 'profile-for-lal' });
  const started = { mailHost, makes: 0 } as Started;
  await mailHost.startCaplet(
    (powers, context) => {
      started.powers = powers as Promise<GuestPowers>;
      started.context = context as CapletContext;
      started.makes += 1;
      return Far('Agent', { ping: () => 'pong' });
    },
    { powersName: 'profile-for-lal', resultName: 'controller-for-lal' },
  );
  return started;
};

const hostInbox = (mailHost: MailHost) => mailHost.host.listMessages();

describe('caplet connection', () => {
  it('gives make a promise for remote powers and a remote context', async () => {
    const { mailHost, powers, context } = await startLal();
    expect(powers).toBeInstanceOf(Promise);
    const presence = await powers;
    expect(typeof (presence as unknown as Record<string, unknown>).list).not.toBe('function');
    expect(typeof (context as unknown as Record<string, unknown>).whenCancelled).not.toBe(
      'function',
    );
    expect(await E(powers).identify('SELF')).toBe(mailHost.guest('lal').id);
    const handle = await mailHost.revive('controller-for-lal');
    expect(await E(context).id()).toBe(handle.id);
    expect(await E(handle.value as { ping(): string }).ping()).toBe('pong');
  });

  it('rejects whenCancelled when the caplet is cancelled', async () => {
    const { mailHost, context } = await startLal();
    const whenCancelled = E(context).whenCancelled();
    const handle = await mailHost.revive('controller-for-lal');
    await handle.cancel(Error('stop now'));
    await expect(whenCancelled).rejects.toThrow('stop now');
    await handle.cancelled;
  });

  it('cancels a caplet with an Error when the reason given is only a text, as the daemon cancels with errors', async () => {
    const { mailHost, context } = await startLal();
    const whenCancelled = E(context).whenCancelled();
    const handle = await mailHost.revive('controller-for-lal');
    await handle.cancel('test over');
    const reason: unknown = await whenCancelled.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(reason).toBeInstanceOf(Error);
    expect((reason as Error).message).toBe('test over');
  });
});

describe('workers', () => {
  it('hands a caplet on another worker a presence it can call', async () => {
    const mailHost = makeMailHost();
    await mailHost.host.provideGuest('fae', { agentName: 'profile-for-fae' });
    await mailHost.host.provideGuest('toolsmith', { agentName: 'profile-for-toolsmith' });
    await mailHost.startCaplet(() => Far('Greet', { greet: (name: string) => `hello ${name}` }), {
      powersName: 'profile-for-toolsmith',
      resultName: 'greet',
      workerName: 'tools',
    });
    let faePowers!: Promise<GuestPowers>;
    await mailHost.startCaplet(
      powers => {
        faePowers = powers as Promise<GuestPowers>;
        return Far('Fae', {});
      },
      { powersName: 'profile-for-fae', workerName: 'agents' },
    );
    await mailHost.host.send('fae', ['a tool: ', ''], ['greet'], ['greet']);
    await E(faePowers).adopt(0n, 'greet', 'greet');
    const tool = (await E(faePowers).lookup('greet')) as { greet(name: string): string };
    expect(typeof (tool as unknown as Record<string, unknown>).greet).not.toBe('function');
    expect(await E(tool).greet('fae')).toBe('hello fae');
    expect(await E(faePowers).reverseLookup(tool)).toEqual(['greet']);
  });
});

describe('guest directory', () => {
  it('lists special names first and rejects unknown names', async () => {
    const { powers } = await startLal();
    await E(powers).storeValue('hello', 'greeting');
    expect(await E(powers).list()).toEqual(['AGENT', 'HOST', 'MAIL', 'SELF', 'greeting']);
    expect(await E(powers).lookup('greeting')).toBe('hello');
    await expect(E(powers).lookup('nope')).rejects.toThrow('Unknown pet name: "nope"');
    await expect(E(powers).storeValue('x', 'Bad')).rejects.toThrow('Invalid name "Bad"');
    await expect(E(powers).storeValue('x', 'SELF')).rejects.toThrow('Invalid pet name "SELF"');
    const selfId = await E(powers).identify('SELF');
    expect(isFormulaId(selfId)).toBe(true);
    await expect(E(powers).reverseIdentify(selfId as string)).resolves.toEqual(['SELF']);
  });

  it('makeDirectory always rebinds the name to a new, empty directory', async () => {
    const { powers } = await startLal();
    await E(powers).makeDirectory('tools');
    await E(powers).storeValue(harden({ n: 1n }), ['tools', 'calc']);
    expect(await E(powers).list('tools')).toEqual(['calc']);
    expect(await E(powers).lookup(['tools', 'calc'])).toEqual({ n: 1n });
    await E(powers).makeDirectory('tools');
    expect(await E(powers).list('tools')).toEqual([]);
    expect(await E(powers).has('tools', 'calc')).toBe(false);
  });

  it('follows name changes after the current names, and documents itself', async () => {
    const { powers } = await startLal();
    const changes = (await E(powers).followNameChanges()) as RemoteIterator<{
      add?: string;
      remove?: string;
    }>;
    const first = await E(changes).next();
    expect(first.value).toMatchObject({ add: 'AGENT' });
    for (let i = 0; i < 3; i += 1) await E(changes).next();
    const next = E(changes).next();
    await E(powers).storeValue('v', 'fresh');
    expect((await next).value).toMatchObject({ add: 'fresh' });
    expect(await E(powers).help()).toMatch(/EndoGuest/);
    expect(await E(powers).help('dismiss')).toMatch(/bigint/);
  });

  it('moves and copies across directories', async () => {
    const { powers } = await startLal();
    await E(powers).makeDirectory('tools');
    await E(powers).storeValue('v', 'calc');
    await E(powers).copy(['calc'], ['tools', 'copy']);
    await E(powers).move(['calc'], ['tools', 'calc']);
    expect(await E(powers).list('tools')).toEqual(['calc', 'copy']);
    expect(await E(powers).has('calc')).toBe(false);
  });
});

describe('mail', () => {
  it('guards message numbers: a JS number fails, a bigint passes the guard', async () => {
    const { powers } = await startLal();
    await expect(E(powers).dismiss(0 as unknown as bigint)).rejects.toThrow(/bigint/);
    await expect(E(powers).dismiss(0n)).rejects.toThrow('Invalid request number 0');
  });

  it('enforces the send rules with clear errors', async () => {
    const { powers } = await startLal();
    await E(powers).storeValue('v', 'thing');
    await expect(E(powers).send('HOST', ['a', 'b'], ['x'], [])).rejects.toThrow(
      /one edge name \(1\) for every pet name \(0\)/,
    );
    await expect(E(powers).send('HOST', [], ['x'], ['thing'])).rejects.toThrow(
      /one string before every value/,
    );
    await expect(E(powers).send('nobody', ['hi'], [], [])).rejects.toThrow(
      'Unknown recipient "nobody"',
    );
    await expect(E(powers).send('HOST', ['see ', ''], ['x'], ['missing'])).rejects.toThrow(
      'Unknown pet name "missing"',
    );
    await expect(E(powers).send('thing', ['hi'], [], [])).rejects.toThrow(/not an agent/);
  });

  it('delivers to the recipient and echoes a copy to the sender, with formula ids', async () => {
    const { mailHost, powers } = await startLal();
    await E(powers).send('HOST', ['hello'], [], []);
    const selfId = await E(powers).identify('SELF');
    const [atHost] = await hostInbox(mailHost);
    const [own] = await E(powers).listMessages();
    for (const record of [atHost, own] as MessageRecord[]) {
      expect(record).toMatchObject({
        type: 'package',
        strings: ['hello'],
        names: [],
        ids: [],
        from: selfId,
        to: mailHost.hostId,
        number: 0n,
      });
      expect(Object.isFrozen(record)).toBe(true);
      expect(typeof record.date).toBe('string');
    }
    expect(atHost?.messageId).toBe(own?.messageId);
  });

  it('reply goes to the other party with replyTo set', async () => {
    const { mailHost, powers } = await startLal();
    await mailHost.host.send('lal', ['ping'], [], []);
    const [incoming] = await E(powers).listMessages();
    expect(incoming?.from).toBe(mailHost.hostId);
    await E(powers).reply(incoming?.number as bigint, ['pong'], [], []);
    const answer = await mailHost.waitForMessage(
      m => m.type === 'package' && m.strings[0] === 'pong',
    );
    expect(answer.replyTo).toBe(incoming?.messageId);
    expect(answer.to).toBe(mailHost.hostId);
  });

  it('followMessages replays undismissed mail, then follows, and return() ends it', async () => {
    const { mailHost, powers } = await startLal();
    await mailHost.host.send('lal', ['one'], [], []);
    await mailHost.host.send('lal', ['two'], [], []);
    const [dismissedOne] = mailHost.guest('lal').inbox();
    await E(powers).dismiss(0n);
    await dismissedOne?.dismissed;
    const iterator = await E(powers).followMessages();
    const first = await E(iterator).next();
    expect((first.value as PackageMessage).strings).toEqual(['two']);
    const pending = E(iterator).next();
    await mailHost.host.send('lal', ['three'], [], []);
    expect(((await pending).value as PackageMessage).strings).toEqual(['three']);
    expect(await E(iterator).return()).toMatchObject({ done: true });
    expect(await E(iterator).next()).toMatchObject({ done: true });
  });

  // Both daemons subscribe to new messages, then walk the live list (mail.js,
  // currentAndSubsequentMessages): at f0a46042a 60 messages sent while a follower read a backlog
  // of 412 each came twice.
  it('followMessages gives twice a message delivered while the backlog is read, as the daemons do', async () => {
    const { mailHost, powers } = await startLal();
    await mailHost.host.send('lal', ['one'], [], []);
    await mailHost.host.send('lal', ['two'], [], []);
    const iterator = await E(powers).followMessages();
    const texts = async (count: number) => {
      const read: string[] = [];
      for (let index = 0; index < count; index += 1)
        read.push(((await E(iterator).next()).value as PackageMessage).strings.join(''));
      return read;
    };
    expect(await texts(1)).toEqual(['one']);
    await mailHost.host.send('lal', ['three'], [], []);
    expect(await texts(3)).toEqual(['two', 'three', 'three']);
    await E(iterator).return();
  });

  it('adopts an attached value into a path, and answers requests', async () => {
    const { mailHost, powers } = await startLal();
    await mailHost.host.storeValue('a calculator', 'calc');
    await mailHost.host.send('lal', ['take ', ''], ['calc'], ['calc']);
    await E(powers).makeDirectory('tools');
    await E(powers).adopt(0n, 'calc', ['tools', 'calc']);
    expect(await E(powers).lookup(['tools', 'calc'])).toBe('a calculator');

    const answer = E(powers).request('HOST', 'a name please', 'answer');
    const request = await mailHost.waitForMessage(m => m.type === 'request');
    await mailHost.host.resolve(request.number, 'calc');
    expect(await answer).toBe('a calculator');
    expect(await E(powers).lookup('answer')).toBe('a calculator');
    expect(await (request as { settled: Promise<string> }).settled).toBe('fulfilled');

    const declined = E(powers).request('HOST', 'again');
    const second = await mailHost.waitForMessage(
      m => m.type === 'request' && m.description === 'again',
    );
    await mailHost.host.reject(second.number, 'no');
    await expect(declined).rejects.toThrow('no');
  });

  it('waitForMessage times out listing the inbox', async () => {
    const { mailHost, powers } = await startLal();
    await E(powers).send('HOST', ['hi there'], [], []);
    await expect(mailHost.waitForMessage(() => false, { timeoutMs: 10 })).rejects.toThrow(
      /hi there/,
    );
  });

  it('counts calls per guest power method', async () => {
    const { mailHost, powers } = await startLal();
    mailHost.resetCallCounts('lal');
    await E(powers).list();
    await E(powers).list();
    await E(powers).has('x');
    expect(mailHost.callCounts('lal')).toEqual({ list: 2, has: 1 });
  });
});

describe('eval-proposals', () => {
  const propose = async (started: Started) => {
    const { mailHost, powers } = started;
    await E(powers).storeValue(harden({ a: 2 }), 'x');
    const result = E(powers).evaluate(undefined, 'x.a + 1', ['x'], ['x'], 'result');
    const reviewer = await mailHost.waitForMessage(m => m.type === 'eval-proposal-reviewer');
    return { result, reviewer };
  };

  it('posts a reviewer copy to HOST and a proposer copy to the guest; grant settles it', async () => {
    const started = await startLal();
    const { mailHost, powers } = started;
    const { result, reviewer } = await propose(started);
    const selfId = await E(powers).identify('SELF');
    expect(reviewer).toMatchObject({
      source: 'x.a + 1',
      codeNames: ['x'],
      petNamePaths: [['x']],
      edgeNames: ['x'],
      from: selfId,
    });
    const proposer = mailHost
      .guest('lal')
      .inbox()
      .find(m => m.type === 'eval-proposal-proposer');
    expect(proposer).toMatchObject({ from: selfId, resultName: 'result' });
    expect(proposer && 'responder' in proposer).toBe(false);
    expect(await mailHost.grant(reviewer.number)).toBe(3);
    expect(await result).toBe(3);
    expect(await E(powers).lookup('result')).toBe(3);
    if (reviewer.type !== 'eval-proposal-reviewer') throw Error('expected a reviewer copy');
    expect(await reviewer.settled).toBe('fulfilled');
    expect(await reviewer.result).toBe(3);
  });

  it('rejectProposal rejects the guest; the CLI-style reject does not settle it', async () => {
    const started = await startLal();
    const { result, reviewer } = await propose(started);
    await started.mailHost.host.reject(reviewer.number, 'cli says no');
    await started.mailHost.rejectProposal(reviewer.number, 'not today');
    await expect(result).rejects.toThrow('not today');
  });

  it('counterPropose sends the guest a reviewer copy with a responder', async () => {
    const started = await startLal();
    const { mailHost, powers } = started;
    const { reviewer } = await propose(started);
    await mailHost.counterPropose(reviewer.number, { source: 'x.a * 10' });
    const counter = await mailHost.waitForMessage(m => m.type === 'eval-proposal-reviewer', {
      who: 'lal',
    });
    expect(counter).toMatchObject({
      source: 'x.a * 10',
      codeNames: ['x'],
      from: mailHost.hostId,
      to: await E(powers).identify('SELF'),
    });
    expect('responder' in counter).toBe(true);
    expect((await hostInbox(mailHost)).some(m => m.type === 'eval-proposal-proposer')).toBe(true);
  });
});

describe('restart', () => {
  it('makes a caplet again when it is looked up, on the same guest, replaying undismissed mail and keeping the store', async () => {
    const started = await startLal();
    const { mailHost } = started;
    const oldPowers = started.powers;
    await E(oldPowers).storeValue(harden({ turns: 3n }), 'memory');
    await mailHost.host.send('lal', ['kept'], [], []);
    await mailHost.host.send('lal', ['gone'], [], []);
    await E(oldPowers).dismiss(1n);
    const oldIterator = await E(oldPowers).followMessages();
    await E(oldIterator).next();
    const stale = E(oldIterator).next();

    await mailHost.restart();
    await expect(stale).rejects.toThrow(/Disconnected/);
    // Not pinned: nothing makes it again until something looks it up.
    expect(started.makes).toBe(1);
    await E(mailHost.host).lookup('controller-for-lal');
    expect(started.makes).toBe(2);
    expect(await E(started.powers).lookup('memory')).toEqual({ turns: 3n });
    await expect(E(oldPowers).list()).rejects.toThrow(/Disconnected/);
    const iterator = await E(started.powers).followMessages();
    const replay = await E(iterator).next();
    expect(replay.value).toMatchObject({ number: 0n, strings: ['kept'] });
    await mailHost.host.send('lal', ['new'], [], []);
    expect((await E(iterator).next()).value).toMatchObject({ number: 2n, strings: ['new'] });
  });

  it('makes what the host pinned in PINS again at start, without any look-up', async () => {
    const started = await startLal();
    const { mailHost } = started;
    expect(await E(mailHost.host).list('PINS')).toEqual([]);
    const id = await E(mailHost.host).identify('controller-for-lal');
    await E(mailHost.host).write(['PINS', 'controller-for-lal'], id as string);
    await mailHost.restart();
    expect(started.makes).toBe(2);
    // Removing its top-level name does not collect it while PINS still names it.
    await E(mailHost.host).remove('controller-for-lal');
    await mailHost.restart();
    expect(started.makes).toBe(3);
    const handle = await mailHost.revive(['PINS', 'controller-for-lal']);
    // Removing the pin too collects it, which cancels it; it is never made again.
    await E(mailHost.host).remove('PINS', 'controller-for-lal');
    await handle.cancelled;
    await mailHost.restart();
    expect(started.makes).toBe(3);
  });

  it("the host's cancel of a pinned caplet is followed by its revival, as the daemon's collection runs revivePins", async () => {
    const started = await startLal();
    const { mailHost } = started;
    await E(mailHost.host).write(
      ['PINS', 'controller-for-lal'],
      (await E(mailHost.host).identify('controller-for-lal')) as string,
    );
    await E(mailHost.host).cancel('controller-for-lal');
    expect(started.makes).toBe(2);
    await E(mailHost.host).remove('PINS', 'controller-for-lal');
    await E(mailHost.host).cancel('controller-for-lal');
    expect(started.makes).toBe(2);
  });

  it('makes a caplet cancelled before the restart again when looked up by id, findable by worker name', async () => {
    const mailHost = makeMailHost();
    await mailHost.host.provideGuest('lal', { agentName: 'profile-for-lal' });
    let makes = 0;
    const first = await mailHost.startCaplet(
      () => {
        makes += 1;
        return Far('Agent', { incarnation: () => makes });
      },
      { powersName: 'profile-for-lal', workerName: 'worker-lal' },
    );
    await first.cancel('restart');
    await mailHost.restart();
    expect(mailHost.caplet('worker-lal')).toBeUndefined();
    await mailHost.revive(first.id);
    const again = mailHost.caplet('worker-lal');
    expect(again?.id).toBe(first.id);
    expect(await E(again?.value as { incarnation(): number }).incarnation()).toBe(2);
    expect(mailHost.caplet('nothing-here')).toBeUndefined();
  });

  it("a guest whose mailbox holds an undismissed eval-proposal fails to load: make runs, every call rejects with the daemon's error", async () => {
    const started = await startLal();
    const { mailHost, powers } = started;
    const result = E(powers).evaluate(undefined, '1 + 1', [], [], 'two');
    const reviewer = await mailHost.waitForMessage(m => m.type === 'eval-proposal-reviewer');
    await mailHost.grant(reviewer.number);
    expect(await result).toBe(2);
    await expect(mailHost.restart()).rejects.toThrow(/HOST's mailbox holds undismissed/);
    await mailHost.host.dismiss(reviewer.number);
    await mailHost.restart();
    await mailHost.revive('controller-for-lal');
    expect(started.makes).toBe(2);
    await expect(E(started.powers).followMessages()).rejects.toThrow(
      /^Unknown message formula type/,
    );
    await expect(E(started.powers).send('HOST', ['hello'], [], [])).rejects.toThrow(
      /^Unknown message formula type/,
    );
  });

  it('revives normally once the proposer copy is dismissed', async () => {
    const started = await startLal();
    const { mailHost, powers } = started;
    const result = E(powers).evaluate(undefined, '40 + 2', [], []);
    const reviewer = await mailHost.waitForMessage(m => m.type === 'eval-proposal-reviewer');
    await mailHost.grant(reviewer.number);
    expect(await result).toBe(42);
    await E(powers).dismissAll();
    await mailHost.host.dismissAll();
    await mailHost.restart();
    await mailHost.revive('controller-for-lal');
    expect(started.makes).toBe(2);
    expect(await E(started.powers).listMessages()).toEqual([]);
  });

  it('failFollowing makes the next followMessages calls fail as a mailbox that does not load, then they work', async () => {
    const { mailHost, powers } = await startLal();
    mailHost.failFollowing('lal', 2);
    await expect(E(powers).followMessages()).rejects.toThrow('Unknown message formula type');
    await expect(E(powers).followMessages()).rejects.toThrow('Unknown message formula type');
    await mailHost.host.send('lal', ['hi'], [], []);
    const iterator = await E(powers).followMessages();
    expect((await E(iterator).next()).value).toMatchObject({ strings: ['hi'] });
  });
});

describe('makeUnconfined', () => {
  const makeTempFolder = useTempFolders();
  const writeModule = (source: string) => {
    const dir = makeTempFolder('mail-host');
    const file = join(dir, 'caplet.mjs');
    writeFileSync(file, source);
    return file;
  };
  const capletSource = `
    import { Far } from '@endo/far';
    export const make = async (powers, context, { env }) => Far('Caplet', { env: () => env });
  `;

  it('guards env like the daemon: undefined or numbers fail', async () => {
    const mailHost = makeMailHost();
    await mailHost.host.provideGuest('lal', { agentName: 'profile-for-lal' });
    const file = writeModule(capletSource);
    const bad = [{ A: undefined }, { A: 1 }] as unknown as Record<string, string>[];
    for (const env of bad) {
      await expect(
        E(mailHost.host).makeUnconfined('MAIN', file, { powersName: 'profile-for-lal', env }),
      ).rejects.toThrow(/env/);
    }
    await expect(
      E(mailHost.host).makeUnconfined('MAIN', './caplet.mjs', { powersName: 'profile-for-lal' }),
    ).rejects.toThrow(/relative/);
  });

  it('loads an absolute path or file URL, passes env, and rebinding resultName cancels the old caplet', async () => {
    const mailHost = makeMailHost();
    await mailHost.host.provideGuest('lal', { agentName: 'profile-for-lal' });
    const file = writeModule(
      capletSource.replace("'@endo/far'", JSON.stringify(import.meta.resolve('@endo/far'))),
    );
    const options = {
      powersName: 'profile-for-lal',
      resultName: 'controller-for-lal',
      env: { LAL_PERSONA: 'fae' },
    };
    const first = await mailHost.host.makeUnconfined('MAIN', file, options);
    expect(await E(first as { env(): unknown }).env()).toEqual({ LAL_PERSONA: 'fae' });
    const firstHandle = await mailHost.revive('controller-for-lal');
    await mailHost.host.makeUnconfined('MAIN', pathToFileURL(file).href, options);
    await firstHandle.cancelled;
    const secondHandle = await mailHost.revive('controller-for-lal');
    expect(secondHandle.id).not.toBe(firstHandle.id);
  });
});

describe('collection of stored values', () => {
  it('a value re-stored under the same name replaces the old formula; a moved value survives', async () => {
    const mailHost = makeMailHost();
    await E(mailHost.host).provideGuest('keeper', { agentName: 'profile-for-keeper' });
    const powers = mailHost.guest('keeper').powers;
    await E(powers).storeValue(harden({ n: 0 }), 'state');
    const firstId = await E(powers).identify('state');
    for (let n = 1; n <= 50; n += 1) await E(powers).storeValue(harden({ n }), 'state');
    await Promise.resolve();
    await expect(E(powers).lookupById(firstId!)).rejects.toThrow();
    expect(await E(powers).lookup('state')).toEqual({ n: 50 });
    await E(powers).move(['state'], ['kept']);
    await Promise.resolve();
    expect(await E(powers).lookup('kept')).toEqual({ n: 50 });
  });
});

describe('what a follower lets go of', () => {
  /** A full collection, made available to this test file without --expose-gc. */
  const collectGarbage = (): void => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  };

  /** Follows `reader`'s mail, takes two messages (one awaited, one queued), dismisses both. */
  const takeAndDismissTwo = async (mailHost: MailHost): Promise<WeakRef<MessageRecord>[]> => {
    const powers = mailHost.guest('reader').powers;
    const iterator = await E(powers).followMessages();
    // Waiting before anything arrives: the record reaches a waiter.
    const awaited = E(iterator).next();
    await mailHost.host.send('reader', ['first'], [], []);
    const first = (await awaited).value as PackageMessage;
    // Arriving before it is asked for: the record waits in the queue.
    await mailHost.host.send('reader', ['second'], [], []);
    const second = (await E(iterator).next()).value as PackageMessage;
    expect([first.strings, second.strings]).toEqual([['first'], ['second']]);
    await E(powers).dismiss(first.number);
    await E(powers).dismiss(second.number);
    return [new WeakRef(first), new WeakRef(second)];
  };

  it('a taken and dismissed message is not kept by the mail host (the follow stays open)', async () => {
    const mailHost = makeMailHost();
    await E(mailHost.host).provideGuest('reader', { agentName: 'profile-for-reader' });
    const refs = await takeAndDismissTwo(mailHost);
    // WeakRef targets stay alive until the current job ends.
    await new Promise(resolve => setTimeout(resolve, 0));
    collectGarbage();
    expect(refs.map(ref => ref.deref() === undefined)).toEqual([true, true]);
  });
});
