/**
 * Asking the host: a request it resolves and one it rejects, code to evaluate
 * (an eval-proposal the host grants at f0a46042a, evaluate at once on the
 * newest), and on the newest daemon a message its sender edits.
 */
import type { Recorder } from './recorder.js';
import { far, listMessages, messageWhere, reduceMessage, type Parties } from './parties.js';
import { followFromNow } from './steps-mail.js';

const settle = (promise: Promise<unknown>) =>
  promise.then(
    value => ({ settled: 'fulfilled', value }),
    (error: unknown) => ({ settled: 'rejected', value: (error as Error).message }),
  );

const requestFor = (who: unknown, description: string) =>
  messageWhere(who, m => m.type === 'request' && m.description === description);

export const requestSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest, names } = parties;
  const asked = settle(far(guest).request!(names.host, 'need a value', 'answered-value'));
  const request = await rec.step("host's request message", async () =>
    reduceMessage(parties, await requestFor(host, 'need a value')),
  );
  if (request !== undefined) {
    const { number } = await requestFor(host, 'need a value');
    await rec.step('host resolves the request', () => far(host).resolve!(number, 'conf-value'));
    await rec.step("guest's request settles", () => asked);
    await rec.step('guest looks up the answer', () => far(guest).lookup!('answered-value'));
    await rec.step("host's request after resolving", () =>
      messageWhere(host, m => m.number === number).then(m => reduceMessage(parties, m)),
    );
  }
  const refused = settle(far(guest).request!(names.host, 'need another', 'refused-value'));
  const second = await rec.step("host's second request", async () =>
    reduceMessage(parties, await requestFor(host, 'need another')),
  );
  if (second !== undefined) {
    const { number: secondNumber } = await requestFor(host, 'need another');
    await rec.step('host rejects the request', () => far(host).reject!(secondNumber, 'not now'));
    await rec.step("guest's second request settles", () => refused);
  }
};
harden(requestSteps);

export const proposalSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest, names } = parties;
  const proposed = settle(far(guest).evaluate!(names.main, '6 * 7', [], [], 'answer'));
  const isProposal = (m: Record<string, unknown>) => m.type === 'eval-proposal-reviewer';
  const reviewer = await rec.step("host's eval-proposal", async () =>
    reduceMessage(parties, await messageWhere(host, isProposal)),
  );
  await rec.step("guest's own copy of the proposal", async () =>
    (await listMessages(parties, guest)).at(-1),
  );
  if (reviewer === undefined) return;
  const { number } = await messageWhere(host, isProposal);
  await rec.step('host grants the proposal', () => far(host).grantEvaluate!(number));
  await rec.step("guest's evaluate settles", () => proposed);
  await rec.step('guest looks up the result', () => far(guest).lookup!('answer'));
  await rec.step('host dismisses the proposal', () => far(host).dismiss!(number));
  const own = await messageWhere(guest, m => m.type === 'eval-proposal-proposer');
  await rec.step('guest dismisses its copy', () => far(guest).dismiss!(own.number));
};
harden(proposalSteps);

export const evaluateSteps = async (rec: Recorder, parties: Parties) => {
  const { guest, names } = parties;
  await rec.step('guest evaluates code in a new worker', () =>
    far(guest).evaluate!(undefined, '6 * 7', [], [], 'answer'),
  );
  await rec.step('guest looks up the result', () => far(guest).lookup!('answer'));
  await rec.step("guest evaluates code in the host's main worker", () =>
    far(guest).evaluate!(names.main, '6 * 7', [], [], 'answer-main'),
  );
  await rec.step("guest's messages after evaluating", async () =>
    (await listMessages(parties, guest)).slice(-1),
  );
};
harden(evaluateSteps);

export const editSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest, names } = parties;
  await rec.step('guest sends a draft', () => far(guest).send!(names.host, ['draft'], [], []));
  const own = await messageWhere(
    guest,
    m => Array.isArray(m.strings) && m.strings[0] === 'draft',
  ).catch(() => undefined);
  if (own === undefined) return;
  const following = await followFromNow(host);
  const hostLast = async () => (await listMessages(parties, host)).at(-1);
  await rec.step('guest edits it, not done', () =>
    far(guest).editMessage!(own.number, ['still drafting'], [], [], { done: false }),
  );
  await rec.step("host's copy after the edit", hostLast);
  await rec.step("guest's copy after the edit", async () =>
    reduceMessage(parties, await messageWhere(guest, m => m.number === own.number)),
  );
  await rec.step('guest edits it, done by default', () =>
    far(guest).editMessage!(own.number, ['final'], [], []),
  );
  await rec.step("host's copy after the final edit", hostLast);
  await rec.step("following the host's mail shows each edit", async () => {
    const seen = (await following.take(2)) as Record<string, unknown>[];
    return seen.map(({ number, strings, done }) => ({ number, strings, done }));
  });
  await following.stop();
  await rec.step('message history of the edited message', async () =>
    ((await far(guest).messageHistory!(own.number)) as unknown[]).map(m =>
      reduceMessage(parties, m),
    ),
  );
  const hostNumber = (
    await messageWhere(host, m => Array.isArray(m.strings) && m.strings[0] === 'final')
  ).number;
  await rec.step("host edits the guest's message", () =>
    far(host).editMessage!(hostNumber, ['hijack'], [], []),
  );
  await rec.step('host dismisses its copy', () => far(host).dismiss!(hostNumber));
  await rec.step('guest edits after the host dismissed', () =>
    far(guest).editMessage!(own.number, ['too late'], [], []),
  );
};
harden(editSteps);
