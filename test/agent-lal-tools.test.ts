/**
 * The Lal tools no other test calls (help, lookup, remove, move, copy,
 * adopt, resolve, reject, identify, store), called by a scripted model
 * through make() and E() on the daemon double; each call's effect is read
 * back from the guest's store or the host's side.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const lastResult = (request: RecordedRequest) => request.messages.at(-1)!.content;

/** Steps that make each call in turn, keeping each call's result, then reply. */
const callEach = (
  calls: [string, (number: number) => unknown][],
  results: string[],
  done: string,
): Step[] => {
  let number = -1;
  return [
    ...calls.map(([name, args], index): Step => request => {
      if (index === 0) number = latestMessageNumber(request);
      else results.push(lastResult(request));
      return callTool(name, args(number));
    }),
    request => {
      results.push(lastResult(request));
      return callTool('reply', { messageNumber: number, strings: [done] });
    },
  ];
};

describe('Lal tools through the daemon double', () => {
  test('help, store, lookup, copy, move, identify, remove and adopt change the guest store as they say', async () => {
    const results: string[] = [];
    const steps = callEach(
      [
        ['help', () => ({})],
        ['store', () => ({ value: 42, petName: ['answer'] })],
        ['lookup', () => ({ petNamePath: ['answer'] })],
        ['copy', () => ({ fromPath: ['answer'], toPath: ['copied'] })],
        ['move', () => ({ fromPath: ['copied'], toPath: ['moved'] })],
        ['identify', () => ({ petNamePath: ['answer'] })],
        ['identify', () => ({ petNamePath: ['moved'] })],
        ['remove', () => ({ petNamePath: ['answer'] })],
        ['adopt', number => ({ messageNumber: number, edgeName: 'gift', petName: ['present'] })],
      ],
      results,
      'all done',
    );
    const run = await start({ steps });
    await E(run.host.host).storeValue(harden('blue'), 'favourite');
    await run.send('please file these ', { edgeNames: ['gift'], petNames: ['favourite'] });
    await run.reply('all done');
    const [help, stored, looked, copied, moved, idAnswer, idMoved, removed, adopted] = results;
    expect(help).toMatch(/listMessages|lookup/);
    expect(JSON.parse(stored!)).toEqual({ stored: ['answer'] });
    expect(looked).toBe('42');
    expect(JSON.parse(copied!)).toEqual({ copied: ['answer'], to: ['copied'] });
    expect(JSON.parse(moved!)).toEqual({ moved: ['copied'], to: ['moved'] });
    // A copy names the same formula.
    expect(idAnswer).toBe(idMoved);
    expect(idAnswer).not.toMatch(/error/);
    expect(JSON.parse(removed!)).toEqual({ removed: ['answer'] });
    expect(JSON.parse(adopted!)).toEqual({ adopted: ['present'] });
    const powers = E(run.host.guest(run.name).powers);
    expect(await powers.has('answer')).toBe(false);
    expect(await powers.has('copied')).toBe(false);
    expect(await powers.lookup('moved')).toBe(42);
    expect(await powers.lookup('present')).toBe('blue');
  });

  test('resolve answers a request with a value from the store; reject refuses one with a reason', async () => {
    const results: string[] = [];
    let number = -1;
    const run = await start({
      steps: [
        request => {
          number = latestMessageNumber(request);
          return callTool('store', { value: 'seven', petName: ['lucky'] });
        },
        () => callTool('resolve', { messageNumber: number, petNamePath: ['lucky'] }),
        request => {
          results.push(lastResult(request));
          return callTool('reject', {
            messageNumber: latestMessageNumber(request),
            reason: 'I have no unicorn',
          });
        },
      ],
    });
    const host = E(run.host.host);
    const answered = host.request(run.name, 'your lucky word', 'word');
    await expect(answered).resolves.toBe('seven');
    expect(await host.lookup('word')).toBe('seven');
    // A resolve answers the sender: the turn ended with it.
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    expect(run.events.find(event => event.kind === 'turn-end')).toMatchObject({
      stopReason: 'answered',
    });
    await expect(host.request(run.name, 'a unicorn', 'unicorn')).rejects.toThrow(
      /I have no unicorn/,
    );
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(2);
    expect(run.provider.requests).toHaveLength(3);
  });
});
