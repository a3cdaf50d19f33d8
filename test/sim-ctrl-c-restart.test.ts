/**
 * Ctrl-C after a restart (behaviour 10.2): with two eval-proposals pending
 * when the simulator last stopped, the agent tells the outcome of each in a
 * turn of its own; Ctrl-C during the second stops it, and neither is taken
 * up again — the first was handled, the second is the one the person stopped.
 */
import { E } from '@endo/far';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession, type Session } from '../sim/chat/session.js';
import { makeKeptStore } from '../sim/chat/kept-store.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import {
  type ModelServer,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { lastUserText, useModelServers } from './support/model-servers.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const startServer = useModelServers();
let server: ModelServer | undefined;
const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0))
    await session.caplet.cancel('test over').catch(() => {});
});

let secondOutcomeAsked: () => void = () => {};

/** Proposes code for "compute", tells an outcome at once, except the second proposal's (it hangs). */
const script = (request: NormalizedRequest): ScriptedReply => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: 'Asked.' };
  const told = lastUserText(request);
  const sum = /compute (\d+ \+ \d+)/.exec(told)?.[1];
  if (sum !== undefined)
    return { toolCalls: [{ name: 'evaluate', arguments: { source: sum, resultName: 'sum' } }] };
  if (told.includes('NOT RUN:') && told.includes('(2 + 2)')) {
    secondOutcomeAsked();
    return { hang: true };
  }
  if (told.includes('NOT RUN:')) return { text: '1 + 1 did not run.' };
  return { text: 'pong' };
};

const start = async (env: Record<string, string>, folder: string, events: AgentEvent[]) => {
  const kept = makeKeptStore(folder);
  const session = await startSession({
    persona: 'lal',
    env,
    log: () => {},
    observe: event => events.push(event),
    restore: async powers => {
      await kept.restore(powers);
    },
  });
  sessions.push(session);
  return { session, kept };
};

const outcomeRequests = (text: string) =>
  server!.requests.filter(
    request =>
      request.normalized !== undefined &&
      lastUserText(request.normalized).includes('NOT RUN:') &&
      lastUserText(request.normalized).includes(text),
  ).length;

describe('Ctrl-C during an outcome turn after a restart', () => {
  it('tells each outcome once: the handled one is not told again, the stopped one is not run again', async () => {
    server = await startServer({ protocol: 'openai', reply: script });
    const env = { LAL_HOST: server.url, LAL_MODEL: 'double-model' };
    const folder = makeTempFolder('ctrl-c');
    const first: AgentEvent[] = [];
    const before = await start(env, folder, first);
    const { host } = before.session.mailHost;
    await E(host).send('lal', ['compute 1 + 1'], [], []);
    await E(host).send('lal', ['compute 2 + 2'], [], []);
    await expect.poll(() => first.filter(event => event.kind === 'turn-end').length).toBe(2);
    await expect
      .poll(
        async () =>
          ((await E(host).listMessages()) as readonly { type: string }[]).filter(
            message => message.type === 'eval-proposal-reviewer',
          ).length,
      )
      .toBe(2);
    // The simulator leaves: what the agent stored is kept, the daemon double is gone.
    await before.kept.save(before.session.mailHost.guest('lal').powers);
    await before.session.caplet.cancel('the host left');

    const events: AgentEvent[] = [];
    const asked = new Promise<void>(resolve => (secondOutcomeAsked = resolve));
    const after = await start(env, folder, events);
    await asked;
    expect(outcomeRequests('(1 + 1)')).toBe(1);
    // Ctrl-C: the turn in progress is the second outcome's.
    await after.session.stopTurn(undefined);
    await after.session.goOn();
    await E(after.session.mailHost.host).send('lal', ['ping'], [], []);
    await after.session.mailHost.waitForMessage(
      message => message.type === 'package' && message.strings.join('') === 'pong',
    );
    expect(outcomeRequests('(1 + 1)')).toBe(1);
    expect(outcomeRequests('(2 + 2)')).toBe(1);
  });
});
