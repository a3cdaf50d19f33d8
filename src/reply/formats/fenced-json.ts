/**
 * A Markdown fence holding one call, ````json\n{"name": …, "arguments": {…}}\n````,
 * as small models write when no native format was trained in. Taken only
 * when it is the answer's one fence, it ends the answer, and the object has
 * exactly a call's keys (so an example shown in prose, with more said after
 * it, stays text).
 */
import type { CallFormat } from './call-format.js';
import { callFromObject, joinWords, parseJson } from './json-text.js';

const FENCE = /```([A-Za-z0-9_-]*)[ \t]*\n([\s\S]*?)\n?```/g;
const SHAPE = { nameKey: 'name', argumentKeys: ['arguments', 'parameters'], extraKeys: ['type'] };

export const fencedJson: CallFormat = {
  family: 'a fenced JSON block holding one call',
  detect: text => text.includes('```'),
  parse(text, offered) {
    const fences = [...text.matchAll(FENCE)];
    if (fences.length !== 1) return undefined;
    const [fence] = fences as [RegExpMatchArray];
    const lang = (fence[1] ?? '').toLowerCase();
    if (lang !== '' && lang !== 'json') return undefined;
    const start = fence.index ?? 0;
    if (text.slice(start + fence[0].length).trim() !== '') return undefined;
    const parsed = parseJson((fence[2] ?? '').trim());
    const call = parsed.ok ? callFromObject(parsed.value, SHAPE, offered) : undefined;
    return call === undefined
      ? undefined
      : { calls: [call], text: joinWords(text.slice(0, start)) };
  },
};
harden(fencedJson);
