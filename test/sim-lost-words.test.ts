/**
 * The words of the person's answer for an agent made again since it asked (sim/chat/lost-words.ts,
 * docs/behaviour.md 10.5): a refusal's reason, or the code HOST would run instead, goes to it as a
 * message from HOST saying what it answers (the code it asked to run, its request's words, or the
 * message's number), and the person is told so; an agent that asked itself hears it from its own
 * request, and is sent nothing.
 */
import { describe, expect, it } from 'vitest';
import { tellLostWords } from '../sim/chat/lost-words.js';

const SINCE = Date.parse('2026-11-29T10:00:00Z');
const BEFORE = '2026-11-29T09:59:59.999Z';

/** HOST's messages, as `listMessages` gives them; what it sends and what the screen says are kept. */
const setup = (messages: Record<string, unknown>[], codeShownBy: Record<string, bigint> = {}) => {
  const sent: { to: string; strings: string[]; names: unknown[]; ids: unknown[] }[] = [];
  const notes: string[] = [];
  const context = {
    session: {
      guestName: 'lal',
      agentSince: SINCE,
      mailHost: {
        host: {
          listMessages: async () => messages,
          send: async (to: string, strings: string[], names: unknown[], ids: unknown[]) =>
            void sent.push({ to, strings, names, ids }),
        },
      },
    },
    screen: { print: (kind: string, text: string) => void notes.push(`${kind}: ${text}`) },
    inbox: { codeMessage: (number: bigint) => codeShownBy[String(number)] },
  };
  return {
    tell: (number: bigint, words: { reason: string } | { counter: string }) =>
      tellLostWords(context as never, number, words),
    sent,
    notes,
  };
};

const codeText = (code: string) =>
  `lal asks to run this code; its result is kept as \`sum\`:\n\n\`\`\`js\n${code}\n\`\`\`\n\nEndowments: none`;

describe('a refusal for an agent made again since it asked', () => {
  it('sends the reason, saying which code it refuses (an eval-proposal), and tells the person', async () => {
    const run = setup([
      { number: 4n, date: BEFORE, type: 'eval-proposal-reviewer', source: '\n  1 +\n  1  ' },
    ]);
    await run.tell(4n, { reason: 'not today' });
    expect(run.sent).toEqual([
      {
        to: 'lal',
        strings: ['You asked me to run this code: 1 + 1\nI refused it: not today'],
        names: [],
        ids: [],
      },
    ]);
    expect(run.notes).toEqual([
      'note: (lal was made again since it asked, and learns only that #4 was refused: your reason goes to it as a message from you)',
    ]);
  });

  it('says the code a request asked to run, read from the message that showed it', async () => {
    const run = setup(
      [
        // Another request's code first: the one that showed #7's is found by its number.
        { number: 5n, date: BEFORE, type: 'package', strings: [codeText('"other"')], names: [] },
        { number: 6n, date: BEFORE, type: 'package', strings: [codeText('2 * 21')], names: [] },
        { number: 7n, date: BEFORE, type: 'request', description: 'lal asks to run the code' },
      ],
      { '7': 6n },
    );
    await run.tell(7n, { counter: '6 * 7' });
    expect(run.sent.map(each => each.strings)).toEqual([
      [
        'You asked me to run this code: 2 * 21\nI refused it, and would run this code instead:\n6 * 7',
      ],
    ]);
    expect(run.notes[0]).toMatch(/#7 was refused: your code goes to it as a message from you\)$/);
  });

  it("says a request's own words when no code was shown with it", async () => {
    const run = setup(
      [
        { number: 6n, date: BEFORE, type: 'package', strings: ['just words'], names: [] },
        { number: 7n, date: BEFORE, type: 'request', description: 'a  cup\nof tea' },
      ],
      { '7': 6n },
    );
    await run.tell(7n, { reason: 'no' });
    expect(run.sent[0]!.strings).toEqual(['You asked me this: "a cup of tea"\nI refused it: no']);
  });

  it('names any other message by its number', async () => {
    const run = setup([{ number: 9n, date: BEFORE, type: 'package', strings: ['hi'], names: [] }]);
    await run.tell(9n, { reason: 'no' });
    expect(run.sent[0]!.strings).toEqual(['You asked me message #9\nI refused it: no']);
  });

  it('cuts what it asked, on one line, to 200 characters', async () => {
    const source = `${'x'.repeat(150)}\n\n${'y'.repeat(100)}`;
    const run = setup([{ number: 4n, date: BEFORE, type: 'eval-proposal-reviewer', source }]);
    await run.tell(4n, { reason: 'long' });
    const [text] = run.sent[0]!.strings;
    const asked = text!.slice('You asked me to run this code: '.length, text!.indexOf('\n'));
    expect(asked).toBe(`${'x'.repeat(150)} ${'y'.repeat(48)}…`);
    expect(asked).toHaveLength(200);
  });

  it('cuts nothing of exactly 200 characters', async () => {
    const source = 'z'.repeat(200);
    const run = setup([{ number: 4n, date: BEFORE, type: 'eval-proposal-reviewer', source }]);
    await run.tell(4n, { reason: 'fits' });
    expect(run.sent[0]!.strings[0]).toBe(
      `You asked me to run this code: ${source}\nI refused it: fits`,
    );
  });
});

describe('nothing is sent', () => {
  it('to an agent that asked since it was made (at that very moment too): its request tells it', async () => {
    const run = setup([
      {
        number: 4n,
        date: new Date(SINCE).toISOString(),
        type: 'eval-proposal-reviewer',
        source: '1',
      },
    ]);
    await run.tell(4n, { reason: 'no' });
    expect(run.sent).toEqual([]);
    expect(run.notes).toEqual([]);
  });

  it('for a message that is not there', async () => {
    const run = setup([{ number: 4n, date: BEFORE, type: 'eval-proposal-reviewer', source: '1' }]);
    await run.tell(5n, { reason: 'no' });
    expect(run.sent).toEqual([]);
    expect(run.notes).toEqual([]);
  });
});
