/**
 * The mail host's second profile, the newest daemon (issue 17), as a caplet
 * sees it through E(): special names, locators in messages, the exo-stream
 * mail reader (read with the agent's own client), edits and their history,
 * storeIdentifier, evaluate at once, strict reject, forms.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, idFromLocator, type MailHost } from '../sim/mail-host/index.js';
import { readStream } from '../src/daemon/stream-reader-client.js';
import { detectGeneration } from '../src/daemon/generation.js';

interface Record_ {
  type: string;
  number: bigint;
  from: string;
  to: string;
  strings?: string[];
  done?: boolean;
  replyTo?: string;
  messageId: string;
  valueId?: string;
}

const withGuest = async (): Promise<{ mailHost: MailHost; guest: any; host: any }> => {
  const mailHost = makeMailHost({ profile: 'newest' });
  const host = mailHost.host as any;
  await E(host).provideGuest('lal', { agentName: 'profile-for-lal' });
  const guest = await E(host).lookup('profile-for-lal');
  return { mailHost, guest, host };
};

describe('the newest daemon profile', () => {
  test('has @-special names, storeIdentifier instead of write, no requestEvaluation; HOST is unbound', async () => {
    const { guest } = await withGuest();
    const names = (await E(guest).__getMethodNames__()) as string[];
    expect(names).toEqual(
      expect.arrayContaining([
        'storeIdentifier',
        'editMessage',
        'messageHistory',
        'evaluate',
        'form',
        'submit',
      ]),
    );
    expect(names).not.toContain('write');
    expect(names).not.toContain('requestEvaluation');
    expect(await E(guest).list()).toEqual(
      expect.arrayContaining(['@agent', '@host', '@mail', '@self']),
    );
    expect(await E(guest).identify('HOST')).toBeUndefined();
    await expect(E(guest).send('HOST', ['hi'], [], [])).rejects.toThrow(/Unknown recipient "HOST"/);
    expect((await detectGeneration(guest)).generation).toBe('newest');
    expect(
      (await detectGeneration(await E(makeMailHost().host as any).provideGuest('x', {})))
        .generation,
    ).toBe('f0a46042a');
  });

  test('messages carry endo:// locators that name the same formulas', async () => {
    const { guest, host, mailHost } = await withGuest();
    await E(host).send('lal', ['hello'], [], []);
    const [message] = (await E(guest).listMessages()) as Record_[];
    expect(message!.from).toMatch(/^endo:\/\/[0-9a-f]{64}\/[0-9a-f]{64}\?type=handle$/);
    expect(idFromLocator(message!.from)).toBe(mailHost.hostId);
    expect(await E(guest).reverseLocate(message!.from)).toEqual(['@host']);
    expect(message!.done).toBe(true);
  });

  test('followMessages answers a reader without next; the client reads current, new and edited messages, and closes', async () => {
    const { guest, host } = await withGuest();
    await E(guest).send('@host', ['first'], [], []);
    const reader = await E(guest).followMessages();
    expect(((await E(reader).__getMethodNames__()) as string[]).includes('next')).toBe(false);
    const stream = readStream(reader);
    const first = (await stream.next()).value as Record_;
    expect(first.strings).toEqual(['first']);
    await E(host).send('lal', ['second'], [], []);
    const second = (await stream.next()).value as Record_;
    expect(second.strings).toEqual(['second']);
    // Sent while the list was still being read: given again as new, as the daemons do.
    expect(((await stream.next()).value as Record_).number).toBe(second.number);
    // The host edits its message: it comes again under the same number.
    const hostCopy = ((await E(host).listMessages()) as Record_[]).find(
      record => record.strings?.[0] === 'second',
    )!;
    await E(host).editMessage(hostCopy.number, ['second, still typing'], [], [], { done: false });
    const edited = (await stream.next()).value as Record_;
    expect([edited.number, edited.strings, edited.done]).toEqual([
      second.number,
      ['second, still typing'],
      false,
    ]);
    const history = (await E(guest).messageHistory(second.number)) as {
      done: boolean;
      envelope: Record_;
    }[];
    expect(history.map(revision => [revision.envelope.strings, revision.done])).toEqual([
      [['second'], true],
      [['second, still typing'], false],
    ]);
    const waiting = stream.next();
    await stream.return();
    expect(await waiting).toMatchObject({ done: true });
  });

  test('only the sender may edit, and an edit of a message the recipient dismissed fails', async () => {
    const { guest, host } = await withGuest();
    await E(host).send('lal', ['hi'], [], []);
    const [received] = (await E(guest).listMessages()) as Record_[];
    await expect(E(guest).editMessage(received!.number, ['mine now'], [], [])).rejects.toThrow(
      /Only the original sender/,
    );
    await E(guest).dismiss(received!.number);
    const [hostCopy] = ((await E(host).listMessages()) as Record_[]).filter(
      record => record.strings?.[0] === 'hi',
    );
    // The daemon's words, as `npm run conformance` saw them.
    await expect(E(host).editMessage(hostCopy!.number, ['hi again'], [], [])).rejects.toThrow(
      /^No message with id "[0-9a-f]+" from sender$/,
    );
  });

  test('reject of an unknown number throws; evaluate runs at once; storeIdentifier names an id', async () => {
    const { guest } = await withGuest();
    await expect(E(guest).reject(99n, 'no')).rejects.toThrow(/No such message with number/);
    expect(await E(guest).evaluate(undefined, '6 * 7', [], [], 'answer')).toBe(42);
    const id = await E(guest).identify('answer');
    await E(guest).storeIdentifier('again', id);
    expect(await E(guest).lookup('again')).toBe(42);
  });

  test('a form is answered by submit with a value message that replies to it', async () => {
    const { guest, host } = await withGuest();
    await E(guest).form('@host', 'Add an agent', [
      { name: 'name', label: 'Agent name' },
      { name: 'model', label: 'Model', default: 'qwen3' },
    ]);
    const form = ((await E(host).listMessages()) as Record_[]).find(
      record => record.type === 'form',
    )!;
    await expect(E(host).submit(form.number, {})).rejects.toThrow(/Missing value for field "name"/);
    await E(host).submit(form.number, { name: 'helper' });
    const value = ((await E(guest).listMessages()) as Record_[]).find(
      record => record.type === 'value',
    )!;
    expect(value.replyTo).toBe(form.messageId);
    expect(await E(guest).lookupById(value.valueId!)).toEqual({ name: 'helper', model: 'qwen3' });
  });
});
