/**
 * What each showing of a message means (src/mail/revision-gate.ts), judged
 * alone: the newest daemon shows an edited message again under the same
 * number, and a restart or reconnect shows every message again. A message
 * answered before a restart is replayed, never amended; a revision of one
 * answered in this run is amended, and said once in the next notice; an
 * unfinished one waits; a showing with a later one behind it is superseded;
 * a showing that repeats the current form is dropped as it arrives; what it
 * remembers is bounded.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { MessageRecord } from '../src/mail/message-record.js';
import { makeRevisionGate } from '../src/mail/revision-gate.js';

const REMEMBERED = 256;

const showing = (text: string, fields: Partial<MessageRecord> = {}): MessageRecord => ({
  type: 'package',
  number: 5n,
  date: '2026-11-27T10:00:00.000Z',
  strings: [text],
  names: [],
  ...fields,
});

describe('a message answered before a restart', () => {
  test('shown again as handled is replayed, never amended, and no notice says it was', () => {
    const gate = makeRevisionGate();
    expect(gate.classify('k', showing('hello'), true)).toBe('replayed');
    expect(gate.classify('k', showing('hello, edited'), true)).toBe('replayed');
    expect(gate.takeAmendedNote()).toBe('');
  });
});

describe('a message answered in this run', () => {
  test('the same showing again is replayed; a revision is amended and said once', () => {
    const gate = makeRevisionGate();
    const first = showing('hello');
    expect(gate.classify('k', first, false)).toBe('serve');
    gate.answered('k', first);
    expect(gate.classify('k', showing('hello'), true)).toBe('replayed');
    expect(gate.takeAmendedNote()).toBe('');
    expect(gate.classify('k', showing('hello, edited'), true)).toBe('amended');
    expect(gate.takeAmendedNote()).toBe(
      'Since you answered it, message #5 was amended by its sender (read the revisions with messageHistory if it matters).\n\n',
    );
    expect(gate.takeAmendedNote()).toBe('');
    // The revision is now what was answered: shown again, it is a replay.
    expect(gate.classify('k', showing('hello, edited'), true)).toBe('replayed');
  });

  test('two amended messages are named together', () => {
    const gate = makeRevisionGate();
    gate.answered('a', showing('one', { number: 5n }));
    gate.answered('b', showing('two', { number: 7n }));
    expect(gate.classify('a', showing('one!', { number: 5n }), true)).toBe('amended');
    expect(gate.classify('b', showing('two!', { number: 7n }), true)).toBe('amended');
    expect(gate.takeAmendedNote()).toBe(
      'Since you answered it, messages #5, #7 were amended by its sender (read the revisions with messageHistory if it matters).\n\n',
    );
  });

  test('a revision without a number is amended but cannot be named', () => {
    const gate = makeRevisionGate();
    gate.answered('k', showing('one', { number: 'five' }));
    expect(gate.classify('k', showing('one!', { number: 'five' }), true)).toBe('amended');
    expect(gate.takeAmendedNote()).toBe('');
  });

  test.each([
    ['its date', { date: '2026-11-27T10:05:00.000Z' }],
    ['its names', { names: ['file'] }],
    ['its text', { strings: ['hello', 'more'] }],
    ['being unfinished', { done: false }],
  ])('a change of %s is a revision', (_what, change) => {
    const gate = makeRevisionGate();
    gate.answered('k', showing('hello'));
    expect(gate.classify('k', showing('hello', change), true)).toBe('amended');
  });

  test('a showing that says it is done is the same as one that does not say', () => {
    const gate = makeRevisionGate();
    gate.answered('k', showing('hello'));
    expect(gate.classify('k', showing('hello', { done: true }), true)).toBe('replayed');
  });
});

describe('a message not answered', () => {
  test('waits while unfinished, and is served once finished', () => {
    const gate = makeRevisionGate();
    expect(gate.classify('k', showing('hel', { done: false }), false)).toBe('wait');
    expect(gate.classify('k', showing('hello', { done: true }), false)).toBe('serve');
  });

  test('without a key it is always served, and nothing about it is kept', () => {
    const gate = makeRevisionGate();
    gate.admit(undefined, showing('a', { done: false }));
    expect(gate.takenBack(undefined)).toBe(false);
    expect(gate.classify(undefined, showing('a', { done: false }), true)).toBe('serve');
    gate.answered(undefined, showing('a'));
    expect(gate.takeAmendedNote()).toBe('');
  });
});

describe('showings waiting in the queue', () => {
  test('one with a later showing behind it is superseded; the later one decides', () => {
    const gate = makeRevisionGate();
    const early = showing('hel', { done: false });
    const late = showing('hello');
    gate.admit('k', early);
    gate.admit('k', late);
    expect(gate.classify('k', early, false)).toBe('superseded');
    expect(gate.classify('k', late, false)).toBe('serve');
  });

  test('once the latest showing is answered, a showing met afterwards is judged on its own', () => {
    const gate = makeRevisionGate();
    const late = showing('hello');
    gate.admit('k', late);
    gate.answered('k', late);
    expect(gate.classify('k', showing('hello'), true)).toBe('replayed');
  });

  test('taken back while its turn ran (a showing with done: false) until it is served finished', () => {
    const gate = makeRevisionGate();
    expect(gate.takenBack('k')).toBe(false);
    gate.admit('k', showing('hello'));
    expect(gate.takenBack('k')).toBe(false);
    gate.admit('k', showing('hello, and', { done: false }));
    expect(gate.takenBack('k')).toBe(true);
    expect(gate.takenBack('other')).toBe(false);
    const final = showing('hello, and more');
    gate.admit('k', final);
    expect(gate.takenBack('k')).toBe(true);
    expect(gate.classify('k', final, false)).toBe('serve');
    expect(gate.takenBack('k')).toBe(false);
  });
});

describe('what the gate remembers is bounded', () => {
  test(`the latest showings of ${REMEMBERED} messages: the least recently shown goes first`, () => {
    const gate = makeRevisionGate();
    const early = showing('hel', { done: false });
    gate.admit('first', early);
    gate.admit('first', showing('hello'));
    gate.admit('kept', showing('x', { done: false }));
    gate.admit('kept', showing('x'));
    for (let n = 0; n < REMEMBERED - 2; n += 1) gate.admit(`m${n}`, showing('m'));
    // Shown again: now the most recent.
    const keptLatest = showing('x!');
    gate.admit('kept', keptLatest);
    gate.admit('one more', showing('m'));
    // "first"'s later showing was forgotten: its early one is no longer known to be superseded.
    expect(gate.classify('first', early, false)).toBe('wait');
    expect(gate.classify('kept', showing('x', { done: false }), false)).toBe('superseded');
  });

  test(`messages taken back: ${REMEMBERED} at most, the oldest forgotten first`, () => {
    const gate = makeRevisionGate();
    for (let n = 0; n <= REMEMBERED; n += 1) gate.admit(`m${n}`, showing('m', { done: false }));
    expect(gate.takenBack('m0')).toBe(false);
    expect(gate.takenBack('m1')).toBe(true);
    expect(gate.takenBack(`m${REMEMBERED}`)).toBe(true);
  });

  test(`answered messages: ${REMEMBERED} at most, the least recently answered forgotten first`, () => {
    const gate = makeRevisionGate();
    gate.answered('first', showing('a'));
    gate.answered('again', showing('b'));
    for (let n = 0; n < REMEMBERED - 2; n += 1) gate.answered(`m${n}`, showing('m'));
    gate.answered('again', showing('b'));
    gate.answered('one more', showing('m'));
    // Forgotten: a revision of it reads as a replay.
    expect(gate.classify('first', showing('a!'), true)).toBe('replayed');
    expect(gate.classify('again', showing('b!'), true)).toBe('amended');
  });
});

describe('what the gate remembers, at the bound', () => {
  test(`exactly ${REMEMBERED} messages shown are all remembered`, () => {
    const gate = makeRevisionGate();
    const early = showing('hel', { done: false });
    gate.admit('first', early);
    gate.admit('first', showing('hello'));
    for (let n = 1; n < REMEMBERED; n += 1) gate.admit(`m${n}`, showing('m'));
    expect(gate.classify('first', early, false)).toBe('superseded');
  });

  test(`exactly ${REMEMBERED} messages answered are all remembered`, () => {
    const gate = makeRevisionGate();
    gate.answered('first', showing('a'));
    for (let n = 1; n < REMEMBERED; n += 1) gate.answered(`m${n}`, showing('m'));
    expect(gate.classify('first', showing('a!'), true)).toBe('amended');
  });

  test('a showing without a key takes no place among those remembered', () => {
    const gate = makeRevisionGate();
    const early = showing('hel', { done: false });
    gate.admit('first', early);
    gate.admit('first', showing('hello'));
    gate.answered('answered', showing('a'));
    for (let n = 1; n < REMEMBERED; n += 1) {
      gate.admit(`m${n}`, showing('m', { done: false }));
      gate.answered(`m${n}`, showing('m'));
    }
    gate.admit(undefined, showing('no key', { done: false }));
    gate.answered(undefined, showing('no key'));
    expect(gate.classify('first', early, false)).toBe('superseded');
    expect(gate.takenBack('first')).toBe(true);
    expect(gate.classify('answered', showing('a!'), true)).toBe('amended');
  });
});

describe('answering a showing', () => {
  test('keeps a later showing that came meanwhile as the current form: the one answered is superseded', () => {
    const gate = makeRevisionGate();
    const first = showing('hello');
    gate.admit('k', first);
    expect(gate.classify('k', first, false)).toBe('serve');
    gate.admit('k', showing('hello, edited'));
    gate.answered('k', first);
    expect(gate.classify('k', first, true)).toBe('superseded');
  });
});

describe('a showing that repeats the current form', () => {
  test('is dropped as it arrives, whoever made the copy; a revision is taken in', () => {
    const gate = makeRevisionGate();
    const first = showing('hello');
    expect(gate.admit('k', first)).toBe(true);
    // The daemon's second showing of the same message: another copy, the same form.
    expect(gate.admit('k', showing('hello'))).toBe(false);
    expect(gate.admit('k', showing('hello', { done: true }))).toBe(false);
    expect(gate.classify('k', first, false)).toBe('serve');
    expect(gate.admit('k', showing('hello, edited'))).toBe(true);
    expect(gate.admit('k', showing('hello, edited'))).toBe(false);
    // The stream's order decides: an older form shown after a newer one is the current form again.
    expect(gate.admit('k', showing('hello'))).toBe(true);
  });

  test('once answered, a repeat of the form answered is dropped, and a revision is taken in', () => {
    const gate = makeRevisionGate();
    const first = showing('hello');
    gate.admit('k', first);
    gate.answered('k', first);
    expect(gate.admit('k', showing('hello'))).toBe(false);
    expect(gate.admit('k', showing('hello', { done: false }))).toBe(true);
  });

  test('after a restart (a gate of its own) the first showing is taken in, to be replayed, and its repeat is dropped', () => {
    const gate = makeRevisionGate();
    const replayed = showing('hello');
    expect(gate.admit('k', replayed)).toBe(true);
    expect(gate.classify('k', replayed, true)).toBe('replayed');
    expect(gate.admit('k', showing('hello'))).toBe(false);
  });

  test('one of another message, or without a key, is taken in', () => {
    const gate = makeRevisionGate();
    gate.admit('k', showing('hello'));
    expect(gate.admit('other', showing('hello'))).toBe(true);
    expect(gate.admit(undefined, showing('hello'))).toBe(true);
    expect(gate.admit(undefined, showing('hello'))).toBe(true);
  });
});

describe('for every sequence of showings and answers', () => {
  const step = fc.oneof(
    fc.record({
      key: fc.constantFrom('a', 'b', 'c'),
      text: fc.constantFrom('hi', 'hi!', 'hello'),
      done: fc.boolean(),
    }),
    fc.record({ answer: fc.constantFrom('a', 'b', 'c') }),
  );

  test("a showing is taken in exactly when it differs from its message's previous one, and the last taken in decides", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), steps => {
        const gate = makeRevisionGate();
        /** The form each message was last shown in, and its showings taken in and not yet answered. */
        const previous = new Map<string, string>();
        const waiting = new Map<string, MessageRecord[]>();
        for (const each of steps) {
          if ('answer' in each) {
            const taken = waiting.get(each.answer) ?? [];
            const last = taken.at(-1);
            if (last === undefined) continue;
            expect(gate.classify(each.answer, last, false)).not.toBe('superseded');
            for (const earlier of taken.slice(0, -1))
              expect(gate.classify(each.answer, earlier, false)).toBe('superseded');
            gate.answered(each.answer, last);
            waiting.set(each.answer, []);
            continue;
          }
          const record = showing(each.text, { done: each.done });
          const form = `${each.text}/${each.done}`;
          const taken = gate.admit(each.key, record);
          expect(taken).toBe(previous.get(each.key) !== form);
          previous.set(each.key, form);
          if (taken) waiting.set(each.key, [...(waiting.get(each.key) ?? []), record]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
