/**
 * docs/daemon-guide.md's recorded real-daemon sessions show what the agent
 * replied, thinking with the scripted model double (`npm run model-double`):
 * each reply about a proposal's outcome is what today's code says, the
 * notice the agent writes (src/asks/proposal-notices.ts) answered by the
 * double (sim/model-server/demo-model.ts), as `endo inbox` prints it.
 */
import { describe, expect, it } from 'vitest';
import { grantedText, notRunProposalText, rejectedText } from '../src/asks/proposal-notices.js';
import { demoModel } from '../sim/model-server/demo-model.js';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { readRepoFile } from './support/repo-files.js';

const guide = readRepoFile('docs/daemon-guide.md');

const origin = { number: 17n, sender: 'HOST' };

/** What the double answers to `told` (the last thing in the request), as the agent sends it. */
const doubleSays = (told: string, last: 'user' | 'tool' = 'user'): string => {
  const request: NormalizedRequest = {
    protocol: 'openai',
    index: 0,
    model: 'double-model',
    messages: [
      { role: 'system', text: 'You are Lal.' },
      { role: 'user', text: 'Message #22 from HOST: please compute six times seven' },
      ...(last === 'tool' ? [{ role: 'tool' as const, text: told }] : []),
      ...(last === 'user' ? [{ role: 'user' as const, text: told }] : []),
    ],
    toolNames: [],
    maxTokens: undefined,
    bytes: 0,
  };
  const reply = demoModel(request);
  if (!('text' in reply) || typeof reply.text !== 'string')
    throw Error(`the double did not answer in words: ${JSON.stringify(reply)}`);
  return reply.text;
};

/** A reply as `endo inbox` prints it; the newest daemon's CLI writes a word's `@` as `\@`. */
const printed = (text: string, newest = false) =>
  `"lal" replied to ${JSON.stringify(newest ? text.replace(/@/g, '\\@') : text)}`;

/** The guide's recorded replies from lal. */
const recorded = [...guide.matchAll(/"lal" replied to "(?:[^"\\]|\\.)*"/g)].map(found => found[0]);

describe("docs/daemon-guide.md's recorded replies about proposals", () => {
  const pending = doubleSays(JSON.stringify({ status: 'pending', proposalId: 'p4' }), 'tool');
  const f0a46042a = {
    granted: doubleSays(grantedText('p4', '6 * 7', 'answer', '42', origin)),
    rejected: doubleSays(rejectedText('p5', '6 * 7', 'not now', origin)),
    notRun: doubleSays(
      notRunProposalText('p3', '6 * 7', 'it was not granted (nothing is kept as "answer")', origin),
    ),
  };
  const newest = {
    granted: doubleSays(
      grantedText('p4', '6 * 7', 'answer', '42', origin, '@host agreed and the daemon ran'),
    ),
    rejected: doubleSays(rejectedText('p5', '6 * 7', 'not now', origin, '@host')),
  };

  it('are read', () => {
    expect(recorded.length).toBeGreaterThan(10);
  });

  it.each([
    ['a proposal sent', printed(pending)],
    ['a proposal granted', printed(f0a46042a.granted)],
    ['a proposal rejected', printed(f0a46042a.rejected)],
    ['a proposal the restart ended (NOT RUN)', printed(f0a46042a.notRun)],
    ['on the newest daemon, a proposal rejected', printed(newest.rejected, true)],
  ])('%s: as the code says it now', (_what, line) => {
    expect(recorded).toContain(line);
  });

  it('shows no outcome in words the code no longer writes', () => {
    const current = new Set([
      printed(pending),
      printed(pending, true),
      ...Object.values(f0a46042a).map(text => printed(text)),
      ...Object.values(newest).map(text => printed(text, true)),
    ]);
    const aboutProposals = recorded.filter(line =>
      /proposal|asked my host|GRANTED|REJECTED|UNKNOWN|NOT RUN/.test(line),
    );
    expect(aboutProposals.filter(line => !current.has(line))).toEqual([]);
  });
});
