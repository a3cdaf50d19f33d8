/**
 * Each correspondent's thread as a module (docs/behaviour.md 9.1): a
 * sender's thread is found or made and kept most recently used last, at
 * most THREADS_KEPT of them; a conversation of the previous release splits
 * by the sender each title names, the HOST's left in the HOST's thread; the
 * HOST's thread shows another sender's turn as one line, and folds as often
 * as the HOST's own turns alone would, others' lines into one digest line.
 */
import { describe, expect, test } from 'vitest';
import { emptyConversation, startTurn } from '../src/history/conversation.js';
import { buildRequest } from '../src/history/build-request.js';
import {
  emptyThreadsInPlace,
  readThreads,
  showToHost,
  splitBySender,
  threadOf,
  threadSender,
  THREADS_KEPT,
  type SenderThread,
} from '../src/history/threads.js';

describe('threads', () => {
  test('the HOST and the agent itself have no sender thread; others do', () => {
    expect(threadSender(undefined, 'HOST')).toBeUndefined();
    expect(threadSender({ sender: 'HOST' }, 'HOST')).toBeUndefined();
    expect(threadSender({ sender: 'bob' }, 'HOST')).toBe('bob');
    expect(threadSender({ sender: 'HOST' }, '@host')).toBe('HOST');
  });

  test(`a thread is found again, the most recently used kept last, at most ${THREADS_KEPT}`, () => {
    const threads: SenderThread[] = [];
    const bobs = threadOf(threads, 'bob');
    startTurn(bobs, '#1 from bob: "hi"', 'hi');
    threadOf(threads, 'carol');
    expect(threadOf(threads, 'bob')).toBe(bobs);
    expect(threads.map(thread => thread.sender)).toEqual(['carol', 'bob']);
    for (let index = 0; index < THREADS_KEPT; index += 1) threadOf(threads, `peer-${index}`);
    expect(threads).toHaveLength(THREADS_KEPT);
    expect(threads.map(thread => thread.sender)).not.toContain('bob');
  });

  test('a shared conversation splits by the sender each digest line and turn names', () => {
    const shared = emptyConversation();
    shared.digest.push(
      { text: '#1 from HOST: "my PIN is 4921" → replied "ok"', count: 1 },
      { text: '#2 from bob: "teal" → replied "ok"', count: 2 },
      { text: 'outcome: r1 ANSWERED → replied "ok"', count: 1 },
    );
    startTurn(shared, '#3 from carol: "hello"', 'Message #3 from carol: hello');
    startTurn(shared, '#4 from HOST: "vault 7788"', 'Message #4 from HOST: vault 7788');
    startTurn(shared, '#5 from bob: "Oslo"', 'Message #5 from bob: Oslo');
    const threads = splitBySender(shared, 'HOST');
    expect(threads.map(thread => thread.sender)).toEqual(['carol', 'bob']);
    const [carol, bob] = threads.map(thread => thread.conversation);
    expect(bob!.digest).toEqual([{ text: '#2 from bob: "teal" → replied "ok"', count: 2 }]);
    expect(bob!.turns.map(turn => turn.title)).toEqual(['#5 from bob: "Oslo"']);
    expect(carol!.turns.map(turn => turn.title)).toEqual(['#3 from carol: "hello"']);
    // The HOST's thread keeps everything.
    expect(shared.turns).toHaveLength(3);
    expect(shared.digest).toHaveLength(3);
    // A sender's turn is copied whole, and a copy: the HOST's thread keeps its own.
    expect(bob!.turns[0]!.messages).toEqual([
      { role: 'user', content: 'Message #5 from bob: Oslo' },
    ]);
    bob!.turns[0]!.messages[0]!.content = 'changed';
    expect(shared.turns[2]!.messages[0]!.content).toBe('Message #5 from bob: Oslo');
  });

  test('only a line that starts with a message title names its sender, whatever the number', () => {
    const shared = emptyConversation();
    shared.digest.push(
      { text: 'wake-up "ask #7 from dave: later" → replied "ok"', count: 1 },
      { text: '#12 from erin: "hi" → replied "ok"', count: 1 },
    );
    startTurn(shared, 'outcome: r2 of #9 from frank: ANSWERED', 'outcome');
    startTurn(shared, '#123 from gina: "yo"', 'Message #123 from gina: yo');
    const threads = splitBySender(shared, 'HOST');
    expect(threads.map(thread => thread.sender)).toEqual(['erin', 'gina']);
  });

  test('the stored threads that read are kept, the most recent last, and the others counted lost', () => {
    const good = (sender: string): SenderThread => ({ sender, conversation: emptyConversation() });
    expect(readThreads(undefined)).toEqual({ threads: [], lost: 0 });
    expect(readThreads({ sender: 'bob' })).toEqual({ threads: [], lost: 0 });
    const stored = [
      good('bob'),
      null,
      'carol',
      { sender: 7, conversation: emptyConversation() },
      { sender: 'dave' },
      { sender: 'erin', conversation: null },
      { sender: 'erin', conversation: 'text' },
      { sender: 'fay', conversation: { digest: [], turns: [] } },
      { sender: 'gus', conversation: { digest: {}, omitted: 0, turns: [] } },
      { sender: 'hal', conversation: { digest: [], omitted: 0, turns: {} } },
      { sender: 'ida', conversation: { digest: [], omitted: '0', turns: [] } },
      good('carol'),
    ];
    const { threads, lost } = readThreads(stored);
    expect(threads.map(thread => thread.sender)).toEqual(['bob', 'carol']);
    expect(lost).toBe(10);
    const many = Array.from({ length: THREADS_KEPT + 3 }, (_, index) => good(`peer-${index}`));
    const kept = readThreads(many);
    expect(kept.lost).toBe(0);
    expect(kept.threads).toHaveLength(THREADS_KEPT);
    expect(kept.threads[0]!.sender).toBe('peer-3');
    expect(kept.threads.at(-1)!.sender).toBe(`peer-${THREADS_KEPT + 2}`);
  });

  test('forget() empties every thread, and the conversations others still hold', () => {
    const threads: SenderThread[] = [];
    const bobs = threadOf(threads, 'bob');
    startTurn(bobs, '#1 from bob: "hi"', 'hi');
    bobs.digest.push({ text: '#0 from bob: "x"', count: 1 });
    bobs.omitted = 2;
    threadOf(threads, 'carol');
    emptyThreadsInPlace(threads);
    expect(threads).toEqual([]);
    expect(bobs).toEqual(emptyConversation());
  });

  test("another sender's turn is one line in the HOST's thread; the HOST's turns alone decide when it folds", () => {
    const host = emptyConversation();
    const budget = { contextTokens: 100_000, keepTurns: 2, digestChars: 10_000 };
    for (let round = 1; round <= 5; round += 1) {
      const own = startTurn(host, `#${round}0 from HOST: "ping ${round}"`, `ping ${round}`);
      own.messages.push({ role: 'assistant', content: `pong ${round}` });
      const bobs = startTurn(emptyConversation(), `#${round}1 from bob: "hi ${round}"`, 'hi');
      bobs.messages.push({ role: 'assistant', content: `hello bob ${round}` });
      bobs.messages.push({
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: `r${round}`,
            name: 'reply',
            arguments: `{"messageNumber":${round}1,"strings":["yo"]}`,
          },
        ],
      });
      showToHost(host, bobs, 'bob', BigInt(`${round}1`), Date.UTC(2026, 10, 23, 9, round));
    }
    const shown = host.turns[1]!;
    expect(shown.thread).toBe('bob');
    // What happened (who, when, what the agent did), never bob's words nor the model's to him (behaviour 9.11).
    expect(shown.messages).toEqual([
      {
        role: 'user',
        content:
          "[2026-11-23T09:01:00.000Z: a turn for bob's message #11, in their own thread; the agent did: replied. Their words are not shown here; mail recall shows them, labelled.]",
      },
    ]);
    // Five own turns and five lines: more than twice keepTurns of its own, so a block folds.
    startTurn(host, '#60 from HOST: "ping 6"', 'ping 6');
    const request = buildRequest('system', host, [], budget);
    expect(host.turns.filter(turn => turn.thread === undefined)).toHaveLength(3);
    expect(host.digest.map(entry => entry.text)).toEqual([
      '#10 from HOST: "ping 1" → said "pong 1"',
      '#20 from HOST: "ping 2" → said "pong 2"',
      '#30 from HOST: "ping 3" → said "pong 3"',
      'meanwhile 2 exchanges with others in their own threads: bob (2); mail recall finds them',
    ]);
    expect(JSON.stringify(request.messages)).toContain("bob's message #31");
    expect(JSON.stringify(request.messages)).not.toMatch(/hi \d|hello bob|yo/);
  });
});
