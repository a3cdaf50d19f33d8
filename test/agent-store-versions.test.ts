/**
 * The agent's store, as the daemon runs the agent (through make() and E(),
 * with the daemon double): a store in the previous format (version 4, asks
 * without a state) loads and its pending ask is finished; a memory of an
 * unknown (newer) version is kept aside under another name, said in the
 * log and in help(), and never overwritten; a secret holding `"` and `\`
 * never reaches the store (docs/architecture.md, "The agent's store").
 */
import { VERSION } from '../src/memory/agent-memory.js';
import { readRepoFile } from './support/repo-files.js';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import { asMessages, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import type { MailHost } from '../sim/mail-host/index.js';
import { withoutIds } from './support/without-ids.js';

const { start } = useAgents();

const guestOf = (host: MailHost, name: string) => E(host.guest(name).powers);
const storedText = async (run: AgentRun) =>
  (await guestOf(run.host, run.name).lookup(['agent-state', 'memory'])) as string;
/** Every string in a JSON value, keys included. */
const stringsIn = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
};

describe('a store in the previous format (version 4)', () => {
  test('loads: its conversation is kept, its pending request is followed and answered, and it is stored again as version 5', async () => {
    let origin = -1;
    const run = await start({
      prepare: async (host, name) => {
        const guest = guestOf(host, name);
        await E(host.host).send(name, ['open the door'], [], []);
        const [asked] = asMessages(await guest.listMessages());
        origin = Number(asked!.number);
        // What the previous release did for that message: a request to HOST, still unanswered.
        void guest.request('HOST', 'the door code', 'door-code').catch(() => {});
        await expect
          .poll(async () => asMessages(await guest.listMessages()).map(m => m.type))
          .toContain('request');
        const version4 = {
          version: 4,
          conversation: {
            digest: [],
            omitted: 0,
            turns: [
              {
                title: `#${origin} from HOST: "open the door"`,
                messages: [
                  { role: 'user', content: `Message #${origin} from HOST: open the door` },
                  { role: 'assistant', content: 'I asked HOST for the door code.' },
                ],
              },
            ],
          },
          handled: [`id:${String(asked!.messageId).slice(0, 24)}`],
          usage: { since: Date.now() - 1_000, byModel: {}, recent: [] },
          wakeUps: [],
          asks: {
            next: 2,
            pending: [
              {
                id: 'r1',
                kind: 'request',
                recipient: 'HOST',
                description: 'the door code',
                origin: { number: String(origin), sender: 'HOST' },
                detail: { responseName: 'door-code' },
              },
            ],
          },
          toldToWait: [],
          notices: [],
        };
        await guest.storeValue(JSON.stringify(version4), 'agent-memory');
      },
      steps: [
        request => {
          expect(request.messages.at(-1)!.content).toMatch(
            /^ANSWERED: HOST answered your request r1 to HOST \("the door code"\), kept as "door-code": "1234"/,
          );
          // The conversation of the previous release is there: the HOST's words, and what was done
          // after them, labelled as kept before labels (docs/behaviour.md 9.11; the words are in recall).
          expect(JSON.stringify(request.messages)).toContain('open the door');
          expect(JSON.stringify(request.messages)).toContain('what an older release kept');
          expect(JSON.stringify(request.messages)).not.toContain('I asked HOST for the door code.');
          return callTool('reply', { messageNumber: origin, strings: ['The code is 1234'] });
        },
      ],
    });
    const [asked] = asMessages(await E(run.host.host).listMessages()).filter(
      message => message.type === 'request',
    );
    await E(run.host.host).storeValue(harden('1234'), 'code');
    await E(run.host.host).resolve(asked!.number, 'code');
    await run.reply('The code is 1234');
    await expect
      .poll(async () => JSON.parse(await storedText(run)) as { version: number; asks: unknown })
      .toMatchObject({ version: VERSION, asks: { next: 2, pending: [] } });
  });
});

describe('a memory of an unknown version', () => {
  const newer = JSON.stringify({
    version: VERSION + 1,
    conversation: { digest: [], omitted: 0, turns: [] },
    handled: [],
    somethingNew: 'kept',
  });

  test('is kept aside under another name, said in the log and help(), and never overwritten', async () => {
    const run = await start({
      prepare: async (host, name) => {
        // Where a later version writes it (version 12's place).
        await guestOf(host, name).makeDirectory('agent-state');
        await guestOf(host, name).storeValue(newer, ['agent-state', 'memory']);
      },
      steps: [say('hello')],
    });
    expect(run.logs.join('\n')).toContain(
      `agent-state/memory is not a memory this version can read (version ${VERSION + 1}, newer than ${VERSION}); kept aside as "agent-state/memory-v${VERSION + 1}"`,
    );
    expect(await run.help()).toContain(
      `kept aside as "agent-state/memory-v${VERSION + 1}", untouched`,
    );
    await run.send('hi');
    await run.reply('hello');
    await expect.poll(async () => JSON.parse(await storedText(run)).version).toBe(VERSION);
    expect(
      await guestOf(run.host, run.name).lookup(['agent-state', `memory-v${VERSION + 1}`]),
    ).toBe(newer);
    // The next run reads its own memory, and leaves the kept one alone.
    await run.restart([]);
    expect(await run.help()).not.toMatch(/kept aside/);
    expect(
      await guestOf(run.host, run.name).lookup(['agent-state', `memory-v${VERSION + 1}`]),
    ).toBe(newer);
  });
});

describe('a secret that holds quotes and backslashes', () => {
  test('never reaches the store, whatever JSON makes of it', async () => {
    const secret = 'to"k\\en-"\\\\-9876';
    const run = await start({
      env: { LAL_AUTH_TOKEN: secret },
      steps: [say(`the token is ${secret}`)],
    });
    await run.send('what is the token?');
    await run.reply(/the token is/);
    await expect
      .poll(async () => stringsIn(JSON.parse(await storedText(run))).join('\n'))
      .toMatch(/the token is \[redacted\]/);
    const strings = stringsIn(JSON.parse(await storedText(run)));
    expect(strings.filter(text => text.includes('k\\en'))).toEqual([]);
    expect(withoutIds(await storedText(run))).not.toContain('9876');
  });
});

describe("the store's versions as docs/architecture.md lists them", () => {
  test('end with the version this release writes, marked current, each version once', () => {
    const page = readRepoFile('docs/architecture.md');
    const listed = [...page.matchAll(/^- \*\*(\d+)\*\*( \(current\))?:/gm)];
    expect(listed.map(match => Number(match[1]))).toEqual(
      Array.from({ length: VERSION }, (_, index) => index + 1),
    );
    expect(listed.filter(match => match[2] !== undefined).map(match => Number(match[1]))).toEqual([
      VERSION,
    ]);
  });
});
