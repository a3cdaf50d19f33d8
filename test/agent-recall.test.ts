/**
 * The whole conversation is kept in the guest's store and searched with
 * mail's `recall` op (issue 24, behaviour 3.11), through make() under
 * lockdown against the daemon double: a fact from the middle of a long
 * conversation, gone from the digest, is found; a store of the previous
 * format becomes searchable; forget() leaves nothing to find; and what the
 * store writes per turn does not grow with the conversation.
 */
import { describe, expect, test } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { E } from '@endo/far';
import { latestMessageNumber, replyStep, type AgentRun } from './support/agent-harness.js';
import { callTool } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';
import { lastToolResult, recallSteps } from './support/recall-steps.js';

const { start } = useAgents();

const FACT = 'Please note: the vault code is 4711-XQ.';

/** One ping/pong exchange; returns the agent's message number for it. */
const exchange = async (run: AgentRun, text: string, answer = 'noted'): Promise<number> => {
  let number = -1;
  run.provider.push(request => {
    number = latestMessageNumber(request);
    return callTool('reply', { messageNumber: number, strings: [`${answer} ${number}`] });
  });
  await run.send(text);
  await run.reply(new RegExp(`^${answer} \\d+$`));
  return number;
};

type Recalled = {
  searched: number;
  found: { messageNumber?: number; from?: string; date?: string; message: string; did: string }[];
};

const ask = async (run: AgentRun, question: string, query: string): Promise<Recalled> => {
  run.provider.push(...recallSteps(query));
  await run.send(question);
  const answer = await run.reply(/^recalled: /);
  return JSON.parse(answer.strings!.join('').slice('recalled: '.length)) as Recalled;
};

/** The closed chunks' names (none before the first chunk fills: the open one is in the memory). */
const historyNames = async (run: AgentRun): Promise<string[]> => {
  const powers = E(run.host.guest(run.name).powers);
  return (await powers.has('agent-history'))
    ? ((await powers.list('agent-history')) as string[])
    : [];
};

/** The history's open chunk, as the memory last wrote it (memory version 11); none before its first write. */
const openChunk = async (run: AgentRun) => {
  const powers = E(run.host.guest(run.name).powers);
  if (!(await powers.has('agent-state', 'memory'))) return undefined;
  return (
    JSON.parse(String(await powers.lookup(['agent-state', 'memory']))) as {
      openChunk?: { seq: number; exchanges: { in: string }[] };
    }
  ).openChunk;
};

describe('recall over the whole conversation (behaviour 3.11)', () => {
  test(
    'a fact stated at message 40 of 300 is no longer in the request, and recall finds it with its number, sender and date',
    async () => {
      const run = await start({ steps: [] });
      let factNumber = -1;
      for (let index = 1; index <= 300; index += 1) {
        const number = await exchange(run, index === 40 ? FACT : `ping ${index}`);
        if (index === 40) factNumber = number;
      }
      const before = run.provider.requests.length;
      const recalled = await ask(run, 'What is the vault code?', 'vault code');
      // The digest kept its first entries and the latest; message 40 had gone from the request.
      expect(JSON.stringify(run.provider.requests[before]!.messages)).not.toContain('4711-XQ');
      expect(recalled.searched).toBeGreaterThanOrEqual(300);
      const [best] = recalled.found;
      expect(best?.message).toContain('the vault code is 4711-XQ');
      expect(best?.messageNumber).toBe(factNumber);
      expect(best?.from).toBe('HOST');
      expect(best?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
      expect(best?.did).toContain(`replied "noted ${factNumber}"`);
      // Kept in chunks: several closed ones, each under its closed name, and the open one in the memory.
      const names = await historyNames(run);
      expect(names.length).toBeGreaterThan(2);
      expect(names.every(name => /^c\d+-\d+$/.test(name))).toBe(true);
      expect((await openChunk(run))?.seq).toBe(names.length + 1);
    },
    2 * TEST_MS,
  );

  test(
    'what the store writes per turn does not grow with the conversation, while the history grows',
    async () => {
      // Handled ids capped low, so the memory's own size settles early.
      const run = await start({ steps: [], env: { LAL_REMEMBER_HANDLED: '16' } });
      const perTurn: { memory: number; history: number }[] = [];
      let previous = run.host.storedBytes(run.name);
      for (let index = 1; index <= 200; index += 1) {
        // The open chunk's number before this turn: the turn that fills it starts the next one.
        const seq = (await openChunk(run))?.seq ?? 1;
        await exchange(run, `ping ${index}: ${'some words of this exchange '.repeat(4)}`);
        // Each message's turn ends with the memory's write, which carries the history's open chunk
        // (the memory may also be saved during a turn: wait for the write that holds this turn, or
        // that starts the next chunk after this turn filled one).
        await expect
          .poll(
            async () => {
              const open = await openChunk(run);
              return open !== undefined && open.seq > seq ? 'closed' : open?.exchanges.at(-1)?.in;
            },
            { interval: 2 },
          )
          .toMatch(new RegExp(`^(closed|Message #\\d+ from HOST: ping ${index}:.*)$`, 's'));
        const now = run.host.storedBytes(run.name);
        perTurn.push({
          // The memory's bytes, by the first name of its path (agent-state/memory, version 12).
          memory: (now['agent-state'] ?? 0) - (previous['agent-state'] ?? 0),
          history: (now['agent-history'] ?? 0) - (previous['agent-history'] ?? 0),
        });
        previous = now;
      }
      const total = (from: number, to: number) =>
        perTurn.slice(from, to).reduce((sum, turn) => sum + turn.memory + turn.history, 0);
      // Turns 51–100 against turns 151–200: about the same bytes (the open chunk fills and
      // empties as it goes), not twice as many as a store rewritten whole would write.
      expect(total(150, 200)).toBeLessThan(total(50, 100) * 1.25);
      // No turn writes more than a chunk of history (8 KiB with its last exchange).
      expect(Math.max(...perTurn.map(turn => turn.history))).toBeLessThan(10_000);
      // Only a turn that filled a chunk wrote to the directory, and that chunk alone.
      expect(perTurn.filter(turn => turn.history > 0)).toHaveLength(
        (await historyNames(run)).length,
      );
      // And the history holds every turn, in order: the closed chunks, then the open one.
      const powers = E(run.host.guest(run.name).powers);
      const names = [...(await historyNames(run))].sort(
        (a, b) => Number(/\d+/.exec(a)?.[0] ?? Infinity) - Number(/\d+/.exec(b)?.[0] ?? Infinity),
      );
      const chunks = await Promise.all(names.map(name => powers.lookup(['agent-history', name])));
      const kept = [
        ...chunks.flatMap(
          chunk => (JSON.parse(chunk as string) as { exchanges: { in: string }[] }).exchanges,
        ),
        ...((await openChunk(run))?.exchanges ?? []),
      ];
      expect(kept.map(record => /ping (\d+):/.exec(record.in)?.[1])).toEqual(
        Array.from({ length: 200 }, (_, index) => String(index + 1)),
      );
    },
    2 * TEST_MS,
  );

  test('a store of the previous format (version 4, no history) loads, and its digest and turns can be searched', async () => {
    const v4 = JSON.stringify({
      version: 4,
      conversation: {
        digest: [
          { text: '#3 from HOST: "ping" → replied "pong"', count: 1 },
          {
            text: '#7 from HOST: "my surname is Okonkwo" → replied "Noted, Ms Okonkwo."',
            count: 1,
          },
        ],
        omitted: 0,
        turns: [
          {
            title: '#9 from HOST: "the invoice number is INV-20931"',
            messages: [
              { role: 'user', content: 'Message #9 from HOST: the invoice number is INV-20931' },
              {
                role: 'assistant',
                content: '',
                toolCalls: [
                  {
                    id: 'c1',
                    name: 'reply',
                    arguments: JSON.stringify({ messageNumber: 9, strings: ['Kept it.'] }),
                  },
                ],
              },
              { role: 'tool', toolCallId: 'c1', name: 'reply', content: 'null' },
            ],
          },
        ],
      },
      handled: ['an-old-message-id'],
      usage: { since: 0, byModel: {}, recent: [] },
      wakeUps: [],
      asks: { next: 1, pending: [] },
      toldToWait: [],
      notices: [],
    });
    const run = await start({
      steps: [],
      prepare: async (host, name) => {
        await E(host.guest(name).powers).storeValue(v4, 'agent-memory');
      },
    });
    // Made into the open chunk, which the memory carries: nothing in the directory yet.
    expect(await historyNames(run)).toEqual([]);
    await expect.poll(async () => (await openChunk(run))?.exchanges.length).toBe(3);
    const surname = await ask(run, 'What is my surname?', 'surname');
    expect(surname.found[0]).toMatchObject({ messageNumber: 7, from: 'HOST' });
    expect(surname.found[0]?.message).toContain('my surname is Okonkwo');
    const invoice = await ask(run, 'Which invoice number did I give?', 'invoice number');
    expect(invoice.found[0]).toMatchObject({
      messageNumber: 9,
      from: 'HOST',
      did: 'replied "Kept it."',
    });
    expect(invoice.found[0]?.message).toBe('the invoice number is INV-20931');
    expect(run.logs.join('\n')).toMatch(
      /3 exchanges of the stored conversation can now be searched/,
    );
    expect(await run.help()).toMatch(
      /1 chunk \(the open one holds \d+ exchanges\), 0\.00 of 16 MB \(LAL_HISTORY_MB\); searchable with mail recall/,
    );
  });

  test('forget() leaves nothing searchable, in this run or after a restart', async () => {
    const run = await start({ steps: [] });
    await exchange(run, 'The meeting is at 14:30 on Thursday.');
    for (let index = 1; index <= 3; index += 1) await exchange(run, `ping ${index}`);
    expect((await ask(run, 'When is the meeting?', 'meeting')).found).toHaveLength(1);
    expect(await run.forget()).toMatch(/the searchable history/);
    expect(await historyNames(run)).toEqual([]);
    const afterForget = await ask(run, 'When is the meeting?', 'meeting');
    // Only the question asked after forget() is there: nothing said before it.
    expect(JSON.stringify(afterForget)).not.toContain('14:30');
    // Saved with the memory after the turn (a restart before then would lose both alike).
    await expect.poll(async () => (await openChunk(run))?.exchanges.length).toBe(1);
    expect(await historyNames(run)).toEqual([]);
    await run.restart();
    const afterRestart = await ask(run, 'When is the meeting?', 'meeting');
    expect(JSON.stringify(afterRestart)).not.toContain('14:30');
    // The one exchange since forget(): the question asked just after it.
    expect(afterRestart.searched).toBe(1);
  });

  test('recall is an op of mail, offered on both daemons; a query without words is told what to give', async () => {
    const run = await start({ steps: [] });
    run.provider.push(
      request =>
        callTool('mail', {
          op: 'recall',
          query: '?!',
          messageNumber: latestMessageNumber(request),
        }),
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [`error: ${lastToolResult(request)}`],
        }),
    );
    await run.send('find nothing');
    expect((await run.reply(/^error: /)).strings!.join('')).toMatch(
      /recall: query has no words to look for/,
    );
    const mail = run.provider.requests[0]!.tools.find(tool => tool.function.name === 'mail');
    expect(mail?.function.parameters.properties?.op?.enum).toContain('recall');
    const newest = await start({ steps: [replyStep('hi')], profile: 'newest', persona: 'fae' });
    await newest.send('hello');
    await newest.reply('hi');
    const newestMail = newest.provider.requests[0]!.tools.find(
      tool => tool.function.name === 'mail',
    );
    expect(newestMail?.function.parameters.properties?.op?.enum).toContain('recall');
    expect(newest.provider.requests[0]!.messages[0]!.content).toMatch(/mail recall searches/);
    expect(run.provider.requests[0]!.messages[0]!.content).toMatch(
      /mail recall searches all earlier conversation/,
    );
  });
});
