/**
 * On the newest daemon the agent asks @host before it runs code: a message
 * with the code, then a one-line request about it
 * (src/asks/host-approved-evaluation.ts; docs/daemon-guide.md "Which
 * daemons"). The simulator reads both back to show them as one
 * (docs/behaviour.md 10.5) with the readers written beside the writers. For
 * every source (backticks, fences, line breaks, hidden characters), the code
 * read back is the code the host was shown, and the request gives back its
 * endowments and result name; neither reader takes the other's message.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  makeHostApprovedEvaluation,
  readCodeForHost,
  readCodeRequest,
} from '../src/asks/host-approved-evaluation.js';
import { showHidden } from '../src/encoding/show-hidden.js';

/** The host's side: what the agent sent and asked, as the daemon would deliver it. */
const hostOf = () => {
  const sent: string[] = [];
  const asked: string[] = [];
  let told: () => void = () => {};
  const both = new Promise<void>(resolve => {
    told = resolve;
  });
  const powers = harden({
    send: (_to: string, strings: string[]) => {
      sent.push(strings.join(''));
    },
    request: (_to: string, description: string) => {
      asked.push(description);
      told();
      // The host has not answered yet.
      return new Promise(() => {});
    },
  });
  return { powers, sent, asked, both };
};

const NAME = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

describe('the code and request the agent puts to @host, read back', () => {
  test('give back the code shown, its endowments and its result name, for every source', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.array(NAME, { maxLength: 3 }),
        NAME,
        fc.option(fc.record({ number: fc.bigInt({ min: 0n, max: 99n }), sender: NAME })),
        async (source, codeNames, resultName, origin) => {
          const host = hostOf();
          makeHostApprovedEvaluation({
            powers: host.powers,
            log: () => {},
            notices: { push: () => {} } as never,
            hostName: '@host',
            who: 'the lal agent',
            direct: false,
          }).propose({
            source,
            codeNames,
            petNamePaths: codeNames.map(name => `pet-${name}`),
            resultName,
            workerName: undefined,
            origin: origin ?? undefined,
          });
          await host.both;
          const [text] = host.sent;
          const [description] = host.asked;
          expect(readCodeForHost(text!)).toBe(showHidden(source));
          expect(readCodeRequest(description!)).toEqual({
            endowments: codeNames.map(name => `${name} <- pet-${name}`).join(', ') || 'none',
            resultName,
            // The agent's own id for it, as its words and notices name it.
            proposalId: 'p1',
          });
          expect(readCodeForHost(description!)).toBeUndefined();
          expect(readCodeRequest(text!)).toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
  });

  test("read a request from before it named the agent's proposal (kept over an upgrade)", () => {
    expect(
      readCodeRequest(
        "The lal agent asks to run the code it just sent (endowments: none; result: answer). To run it, resolve with a stored value's name (endo store --text yes --name yes); reject to refuse.",
      ),
    ).toEqual({ endowments: 'none', resultName: 'answer' });
  });

  test('read nothing from other words, even words that quote the request', () => {
    expect(readCodeForHost('pong')).toBeUndefined();
    expect(readCodeRequest('lal asks to call runCommand {} (approval a1).')).toBeUndefined();
    expect(readCodeForHost('asks to run this code; its result is kept as `x`:\n\n6 * 7')).toBe(
      undefined,
    );
  });
});
