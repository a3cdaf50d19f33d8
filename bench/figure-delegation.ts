/**
 * Figure 14 — delegation: what a helper agent (behaviour 7.9) costs. Fae,
 * with the math tool, asked "6 × 7" by the HOST, does it directly (math,
 * then the reply) and through a helper given only math (the helper op and
 * a word to the HOST; the helper's math and handBack; the outcome's turn
 * that tells the HOST), against a zero-latency model double. The model
 * calls of each, and the wall time from the HOST's message to the answer
 * (median of rounds): the price of a context of its own.
 */
import { performance } from 'node:perf_hooks';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { startBenchAgent, type BenchAgent } from './bench-agent.js';
import { callTool, latestNoticeNumber, type ModelStep } from './scripted-model.js';
import { judged, type FigureResult } from './figure.js';
import { median } from './stats.js';

const ROUNDS = 5;
const MATH_URL = new URL('../tools/math.js', import.meta.url).href;

const isHelpers = (request: NormalizedRequest) =>
  request.messages[0]?.text.startsWith('You are a helper') === true;

const lastText = (request: NormalizedRequest) => request.messages.at(-1)?.text ?? '';

const replyTo = (request: NormalizedRequest, text: string) =>
  callTool('reply', { messageNumber: latestNoticeNumber(request), strings: [text] });

/** The agent's and its helper's steps, each request taking the next of its own (they run at once). */
const routed = (agent: ModelStep[], helper: ModelStep[]): ModelStep[] =>
  Array.from({ length: agent.length + helper.length }, (): ModelStep => request => {
    const next = (isHelpers(request) ? helper : agent).shift();
    if (next === undefined) throw new Error('bench model: no step left');
    return next(request);
  });

const direct = (round: number): ModelStep[] => [
  () => callTool('math', { operation: 'multiply', a: 6, b: 7 }),
  request => replyTo(request, `42 (${round}, direct)`),
];

const delegated = (round: number): ModelStep[] =>
  routed(
    [
      () => callTool('mail', { op: 'helper', description: 'What is 6 × 7?', grant: ['math'] }),
      request => replyTo(request, `a helper is on it (${round})`),
      // The helper's DONE notice: its own turn, which tells the HOST.
      request => replyTo(request, `42 (${round}, ${lastText(request).slice(0, 4)})`),
    ],
    [
      () => callTool('math', { operation: 'multiply', a: 6, b: 7 }),
      () => callTool('handBack', { result: '42' }),
    ],
  );

/** Model calls and wall time from the HOST's message to the answer that says 42. */
const ask = async (agent: BenchAgent, steps: ModelStep[], answer: string) => {
  agent.model.push(...steps);
  const before = agent.server.requests.length;
  const started = performance.now();
  await agent.send('What is 6 × 7?');
  await agent.host.waitForMessage(
    message => message.type === 'package' && message.strings.join('').startsWith(answer),
    { timeoutMs: 10_000 },
  );
  const ms = performance.now() - started;
  return { ms, calls: agent.server.requests.length - before };
};

const measure = async (way: 'direct' | 'delegated') => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-math', MATH_URL, { resultName: 'math-tool', env: {} });
  const agent = await startBenchAgent({
    persona: 'fae',
    host,
    introducedNames: { 'math-tool': 'calculator' },
  });
  try {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.push(
        await ask(
          agent,
          way === 'direct' ? direct(round) : delegated(round),
          `42 (${round}, ${way === 'direct' ? 'direct' : 'DONE'})`,
        ),
      );
      // The last turn's memory saved before the next round starts.
      await agent.forget();
    }
    return { ms: median(rounds.map(r => r.ms)), calls: median(rounds.map(r => r.calls)) };
  } finally {
    await agent.stop();
  }
};

export const delegationFigure = async (): Promise<FigureResult> => {
  const directly = await measure('direct');
  const helped = await measure('delegated');
  return {
    id: 'delegation',
    title: '14. Delegation: "6 × 7" done directly and through a helper given only math',
    rows: [
      {
        label: 'directly: model calls, message → answer',
        measured: `${directly.calls} calls, ${directly.ms.toFixed(1)} ms (median of ${ROUNDS})`,
        target: '',
        verdict: 'info',
      },
      {
        label: 'through a helper: model calls, message → answer',
        measured: `${helped.calls} calls, ${helped.ms.toFixed(1)} ms (median of ${ROUNDS})`,
        target: '≤ direct + 3 calls',
        verdict: judged(helped.calls <= directly.calls + 3),
      },
    ],
    data: { direct: directly, delegated: helped },
    notes: [
      "A helper's calls: the agent's helper op and its word to the HOST, the helper's math and handBack, the outcome's turn that answers: 3 more than directly; its context is its task alone.",
    ],
  };
};
harden(delegationFigure);
