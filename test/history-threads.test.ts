/**
 * Each correspondent's thread as a module (docs/behaviour.md 9.1): a
 * sender's thread is found or made and kept most recently used last, at
 * most THREADS_KEPT of them; a conversation of the previous release splits
 * by the sender each title names, the HOST's left in the HOST's thread.
 */
import { describe, expect, test } from 'vitest';
import { emptyConversation, startTurn } from '../src/history/conversation.js';
import {
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
  });
});
