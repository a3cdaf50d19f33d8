/**
 * How a new message is shown to the model, per persona and message type:
 * the whole message is in the notice (so the model can answer without
 * listing its inbox), attachments say how to keep them, a request says how
 * to answer it, and an unusual message shows its plain fields only.
 */
import { describe, expect, test } from 'vitest';
import { counterProposalNotice, messageNotice } from '../src/mail/message-notice.js';

describe('messageNotice', () => {
  test('a notice is one line with the number, the sender and the text, for both personas (how to answer is in the system prompt)', () => {
    const message = { type: 'package', number: 7n, strings: ['hello'], names: [] };
    expect(messageNotice('lal', message, 'alice')).toBe('Message #7 from alice: hello');
    expect(messageNotice('fae', message, 'alice')).toBe('Message #7 from alice: hello');
  });

  test('attachments are named with how to keep them', () => {
    const notice = messageNotice(
      'fae',
      { type: 'package', number: 2n, strings: ['take ', ' and ', ''], names: ['a', 'b'] },
      'bob',
    );
    expect(notice).toBe(
      'Message #2 from bob: take @a and @b\nAttached: @a, @b (keep one with mail adopt, edgeName and petName, or mail adoptTool for a tool).',
    );
  });

  test('a request says how to answer it; a request without a description shows an empty one', () => {
    expect(
      messageNotice('fae', { type: 'request', number: 3n, description: 'a colour' }, 'HOST'),
    ).toBe(
      'Message #3 from HOST: A request: "a colour"\nAnswer it with mail resolve (path) or reject (reason).',
    );
    expect(messageNotice('fae', { type: 'request', number: 4n }, 'HOST')).toContain(
      'A request: ""',
    );
  });

  test('an unusual message shows its plain fields, not its parties or objects', () => {
    const notice = messageNotice(
      'fae',
      {
        type: 'mystery',
        number: 5n,
        from: 'id-secret-from',
        to: 'id-secret-to',
        flag: true,
        count: 3,
        big: 10n,
        nested: { no: 1 },
      },
      'carol',
    );
    expect(notice).toBe(
      'Message #5 from carol: A message of type "mystery": {"type":"mystery","number":"5","flag":"true","count":"3","big":"10"}',
    );
  });

  test('a huge unusual message is cut', () => {
    const notice = messageNotice(
      'fae',
      { type: 'mystery', number: 6n, blob: 'x'.repeat(2_000) },
      'carol',
    );
    expect(notice).toMatch(/… \(\d+ characters in all\)$/);
    expect(notice.length).toBeLessThan(700);
  });

  test('a message with no type at all is shown, not dropped', () => {
    expect(messageNotice('fae', { number: 8n }, 'dave')).toBe(
      'Message #8 from dave: A message of type "undefined": {"number":"8"}',
    );
  });
});

describe('counter-proposals', () => {
  test('the notice shows the new source, endowments, worker and result name', () => {
    const notice = messageNotice(
      'lal',
      {
        type: 'eval-proposal-reviewer',
        number: 9n,
        source: 'a + 1',
        codeNames: ['a'],
        edgeNames: ['count'],
        workerName: 'w',
        resultName: 'next',
      },
      'HOST',
    );
    expect(notice.split('\n')).toEqual([
      'COUNTER-PROPOSAL: message #9 from HOST proposes different code:',
      'a + 1',
      'Endowments: a <- count',
      'Worker: w; result name: next',
      'Consider it: if it does what was asked, use it (propose it with evaluate if you need its result); otherwise reply(9, …) saying why not.',
    ]);
  });

  test('missing parts are said to be missing, and a long source is cut', () => {
    const notice = counterProposalNotice({ type: 'eval-proposal-proposer', number: 10n }, 'HOST');
    expect(notice).toContain('Endowments: none');
    expect(notice).toContain('Worker: a new worker; result name: none');
    const long = counterProposalNotice(
      { type: 'eval-proposal-proposer', number: 11n, source: 'y'.repeat(300) },
      'HOST',
    );
    expect(long).toContain(`${'y'.repeat(200)}… (300 characters in all)`);
  });
});
