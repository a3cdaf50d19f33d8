/**
 * The serving loop's own net (serving/serving-loop.ts): work that fails
 * outside a turn (a turn tells its own failure) never stops the loop; the
 * sender of a message whose work failed hears back by a reply to that
 * message, which is then dismissed, and the next piece of work is served.
 * No path through make() fails so today (each step before a turn catches
 * its own failures), so the loop is driven here with handlers that throw.
 * And the memory's write after a piece of work waits a moment for the answer
 * to travel, when nothing else waits and nothing a crash must not lose
 * changed (docs/benchmark.md, "Less daemon work a ping").
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { freshMemory, type Memory } from '../src/memory/agent-memory.js';
import { makeSenderNames } from '../src/mail/sender-names.js';
import { makeTellSender } from '../src/mail/tell-sender.js';
import { ANSWER_FIRST_MS, runServingLoop, type WorkHandlers } from '../src/serving/serving-loop.js';
import { makeWorkQueue, type WorkQueue } from '../src/serving/work-queue.js';
import type { Work } from '../src/serving/work.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const HOST_ID = `${'c'.repeat(128)}:${'b'.repeat(128)}`;
const STRANGER_ID = `${'9a7fd267'.padEnd(128, '0')}:${'b'.repeat(128)}`;

interface Said {
  how: 'reply' | 'send';
  to: string;
  text: string;
}

/** Guest powers that record what is said and dismissed; `reply` fails for numbers in `gone`. */
const makePowers = (gone: Set<bigint> = new Set()) => {
  const said: Said[] = [];
  const dismissed: bigint[] = [];
  const stored: string[] = [];
  const powers = Far('FakeGuest', {
    reverseIdentify: async (id: string) => {
      if (id === HOST_ID) return harden(['HOST']);
      throw Error('the directory is unreachable');
    },
    reply: async (number: bigint, strings: string[]) => {
      if (gone.has(number)) throw Error(`No message #${number}`);
      said.push({ how: 'reply', to: `#${number}`, text: strings.join('') });
    },
    send: async (to: string, strings: string[]) => {
      if (to !== 'HOST') throw Error(`Unknown pet name: ${to}`);
      said.push({ how: 'send', to, text: strings.join('') });
    },
    dismiss: async (number: bigint) => {
      dismissed.push(number);
    },
    storeValue: async (value: string) => {
      stored.push(value);
    },
  });
  return { powers: powers as unknown as PowersRef, said, dismissed, stored };
};

const mail = (number: bigint, from: string): Work =>
  harden({ kind: 'mail', message: { type: 'package', number, from, strings: ['hi'] } });

/** A queue holding `works`, closed: the loop ends once it has served them. */
const queueOf = (works: Work[]): WorkQueue<Work> => {
  const queue = makeWorkQueue<Work>();
  works.forEach(work => queue.push(work));
  queue.close();
  return queue;
};

/** What a run of the loop is given; every part a test leaves out is one that does nothing. */
interface LoopSetup {
  queue: WorkQueue<Work>;
  powers: PowersRef;
  handle: Partial<WorkHandlers>;
  memory?: Memory;
  /** Where the loop's log lines go; none: nowhere. */
  logs?: string[];
  redact?: (text: string) => string;
  /** The wait for an answer to travel before the memory's write; none: the loop's own. */
  answerFirst?: (ms: number) => Promise<void>;
}

/** The serving loop, on one set-up for every test here. */
const runLoop = (setup: LoopSetup): Promise<void> => {
  const log = (line: string) => void setup.logs?.push(line);
  const redact = setup.redact ?? ((text: string) => text);
  return runServingLoop({
    queue: setup.queue,
    signal: new AbortController().signal,
    powers: setup.powers,
    parts: {
      memory: setup.memory ?? freshMemory(0),
      history: { save: async () => {} } as never,
      nameOf: makeSenderNames(setup.powers),
      tell: makeTellSender(setup.powers, log, redact),
    },
    log,
    redact,
    handle: {
      mail: async () => {},
      channel: async () => {},
      notices: async () => {},
      wake: async () => {},
      forget: async () => 'forgot',
      schedules: () => 'No schedules.',
      ...setup.handle,
    },
    ...(setup.answerFirst === undefined ? {} : { answerFirst: setup.answerFirst }),
  });
};

/** `works` served by the loop, failures told with "sekret" hidden (the agent's redactor's part). */
const serve = (
  powers: PowersRef,
  works: Work[],
  handle: Partial<WorkHandlers>,
  logs: string[],
  memory = freshMemory(0),
): Promise<void> =>
  runLoop({
    queue: queueOf(works),
    powers,
    handle,
    logs,
    memory,
    redact: text => text.replaceAll('sekret', '[redacted]'),
  });

test('a message whose work fails outside a turn is answered with the failure and dismissed; the next is served', async () => {
  const { powers, said, dismissed, stored } = makePowers();
  const logs: string[] = [];
  const served: bigint[] = [];
  const memory = freshMemory(0);
  // Each piece of work changes the memory before it fails or ends (a memory unchanged is not written again).
  const changed = (what: string) => memory.handled.push(what);
  await serve(
    powers,
    [mail(1n, HOST_ID), { kind: 'wake', id: 'w1' }, mail(2n, HOST_ID)],
    {
      mail: async work => {
        changed(String(work.message.number));
        if (work.message.number === 1n) throw Error('the lookup broke (token sekret)');
        served.push(work.message.number as bigint);
      },
      wake: async () => {
        changed('w1');
        throw Error('the wake-up broke');
      },
    },
    logs,
    memory,
  );
  expect(said).toEqual([
    {
      how: 'reply',
      to: '#1',
      text: 'I could not answer this: the agent failed: the lookup broke (token [redacted]). Send it again if you still need it.',
    },
  ]);
  expect(dismissed).toEqual([1n]);
  expect(served).toEqual([2n]);
  expect(logs).toEqual([
    'could not serve mail: the lookup broke (token [redacted])',
    'could not serve wake: the wake-up broke',
  ]);
  // The memory is written after each piece of work, the failed ones too.
  expect(stored).toHaveLength(3);
});

test("a stranger's message that fails is answered to the stranger, never sent to the HOST", async () => {
  // The stranger's name cannot be had (its look-up fails) and the message is gone when the failure is told.
  const { powers, said, dismissed } = makePowers(new Set([7n]));
  const logs: string[] = [];
  await serve(
    powers,
    [mail(7n, STRANGER_ID), mail(8n, STRANGER_ID)],
    {
      mail: async () => {
        throw Error('it broke');
      },
    },
    logs,
  );
  // #8 still reachable: its reply goes to its sender; #7's failure could not be told, and is logged.
  expect(said).toEqual([
    {
      how: 'reply',
      to: '#8',
      text: 'I could not answer this: the agent failed: it broke. Send it again if you still need it.',
    },
  ]);
  expect(said.filter(each => each.to === 'HOST')).toEqual([]);
  expect(dismissed).toEqual([7n, 8n]);
  expect(logs).toEqual([
    'could not serve mail: it broke',
    'could not tell unnamed 9a7fd267: No message #7',
    'could not serve mail: it broke',
  ]);
});

describe("the memory's write after a piece of work", () => {
  /** Mail #1–#3 served one at a time, each pushed once the one before it is written; `change` says what each changes. */
  const serveInTurn = async (change: (number: bigint, memory: Memory) => void) => {
    const events: string[] = [];
    const memory = freshMemory(0);
    const queue = makeWorkQueue<Work>();
    const next = [mail(2n, HOST_ID), mail(3n, HOST_ID)];
    const powers = Far('FakeGuest', {
      storeValue: async () => {
        events.push('write');
        const work = next.shift();
        if (work === undefined) queue.close();
        else queue.push(work);
      },
    }) as unknown as PowersRef;
    queue.push(mail(1n, HOST_ID));
    await runLoop({
      queue,
      powers,
      memory,
      handle: {
        mail: async work => {
          events.push(`work #${work.message.number}`);
          change(work.message.number as bigint, memory);
        },
      },
      answerFirst: async ms => {
        events.push(`wait ${ms} ms`);
      },
    });
    return events;
  };

  test('waits for the answer when only the conversation changed, and nothing else waits', async () => {
    const events = await serveInTurn((number, memory) => {
      memory.conversation.omitted = Number(number);
    });
    // The first write of a run is made at once: there is no earlier one to compare with.
    expect(events).toEqual([
      'work #1',
      'write',
      'work #2',
      `wait ${ANSWER_FIRST_MS} ms`,
      'write',
      'work #3',
      `wait ${ANSWER_FIRST_MS} ms`,
      'write',
    ]);
  });

  test('is made at once when a handled key changed: an answered message still in the inbox is remembered before anything else (behaviour 2.5)', async () => {
    const events = await serveInTurn((number, memory) => {
      memory.conversation.omitted = Number(number);
      // #2 left its key stored (its dismissal failed); #3 changed only the conversation.
      if (number === 2n) memory.handled.push('id:two');
    });
    expect(events).toEqual([
      'work #1',
      'write',
      'work #2',
      'write',
      'work #3',
      `wait ${ANSWER_FIRST_MS} ms`,
      'write',
    ]);
  });

  test('does not wait while other work waits: the next piece of work goes first', async () => {
    const { powers, stored } = makePowers();
    const memory = freshMemory(0);
    const waits: number[] = [];
    await runLoop({
      queue: queueOf([mail(1n, HOST_ID), mail(2n, HOST_ID), mail(3n, HOST_ID)]),
      powers,
      memory,
      handle: {
        mail: async work => {
          memory.conversation.omitted = Number(work.message.number);
        },
      },
      answerFirst: async ms => {
        waits.push(ms);
      },
    });
    expect(stored).toHaveLength(3);
    // Only after the last, with the queue empty.
    expect(waits).toEqual([ANSWER_FIRST_MS]);
  });
});

test("the HOST's forget() is written at once: a conversation forgotten is gone from the store when it says so", async () => {
  const events: string[] = [];
  const memory = freshMemory(0);
  const queue = makeWorkQueue<Work>();
  const powers = Far('FakeGuest', {
    storeValue: async () => {
      events.push('write');
      queue.close();
    },
  }) as unknown as PowersRef;
  // A first write of the run, so that the next one may wait if the rule lets it.
  await runLoop({
    queue: queueOf([mail(1n, HOST_ID)]),
    powers: Far('FakeGuest', { storeValue: async () => {} }) as unknown as PowersRef,
    memory,
    handle: {
      mail: async () => {
        memory.conversation.omitted = 1;
      },
    },
    answerFirst: async () => {},
  });
  queue.push({
    kind: 'forget',
    done: said => events.push(said),
  });
  await runLoop({
    queue,
    powers,
    memory,
    handle: {
      forget: async () => {
        memory.conversation.omitted = 0;
        return 'forgot';
      },
    },
    answerFirst: async ms => {
      events.push(`wait ${ms} ms`);
    },
  });
  expect(events).toEqual(['forgot', 'write']);
});
