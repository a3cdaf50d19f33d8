/**
 * The simulator's session in-process: Ctrl-C stops the turn in progress
 * (the agent is cancelled and made again; the message it was on is not taken
 * up again) and the next message is answered; /forget and /memory read and
 * clear what the agent keeps (behaviour 10.2).
 */
import { E } from '@endo/far';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession, type Session } from '../sim/chat/session.js';
import { describeKept } from '../sim/chat/describe-kept.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import {
  startModelServer,
  type ModelServer,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { lastUserText } from './support/model-servers.js';

let server: ModelServer | undefined;
let session: Session | undefined;
afterEach(async () => {
  await session?.caplet.cancel('test over').catch(() => {});
  await server?.close();
  server = undefined;
  session = undefined;
});

let slowAsked: () => void = () => {};

const script = (request: NormalizedRequest): ScriptedReply => {
  if (request.messages.at(-1)?.role === 'tool') return { text: '' };
  const told = lastUserText(request);
  if (told.includes('slow')) {
    slowAsked();
    return { hang: true };
  }
  const number = Number([...told.matchAll(/#(\d+)/g)].pop()?.[1]);
  return {
    toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } }],
  };
};

describe('the simulator session', () => {
  it('stops a turn in progress and answers the next message; the stopped one is not taken up again', async () => {
    server = await startModelServer({ protocol: 'openai', reply: script });
    const events: AgentEvent[] = [];
    let heard: () => void = () => {};
    session = await startSession({
      persona: 'lal',
      env: { LAL_HOST: server.url, LAL_MODEL: 'double-model' },
      log: () => {},
      observe: event => {
        events.push(event);
        heard();
      },
    });
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise<void>(resolve => (heard = resolve));
    };
    const { host } = session.mailHost;
    const asked = new Promise<void>(resolve => (slowAsked = resolve));
    await E(host).send('lal', ['be slow'], [], []);
    await asked;
    const started = events.find(event => event.kind === 'turn-start');
    const number = BigInt(
      /^#(\d+) /.exec(started?.kind === 'turn-start' ? started.title : '')![1]!,
    );
    await session.stopTurn(number);
    await session.goOn();
    await until(() => events.some(event => event.kind === 'turn-end'));
    const firstEnd = events.find(event => event.kind === 'turn-end');
    expect(firstEnd?.kind === 'turn-end' && firstEnd.stopReason).toBe('cancelled');
    await E(host).send('lal', ['ping'], [], []);
    await session.mailHost.waitForMessage(
      message => message.type === 'package' && message.strings.join('') === 'pong',
    );
    // The slow message was asked of the model once: the new agent did not take it up again.
    const slowRequests = server.requests.filter(request =>
      request.normalized === undefined ? false : lastUserText(request.normalized).includes('slow'),
    );
    expect(slowRequests).toHaveLength(1);

    const powers = session.mailHost.guest('lal').powers;
    // The agent writes its memory just after the turn.
    await expect
      .poll(async () => (await describeKept(powers)).join('\n'))
      .toMatch(/the conversation: [1-9]\d* recent turns?[\s\S]*#\d+ from HOST: "ping"/);
    await E(session.caplet.value as { forget(): Promise<void> }).forget();
    expect((await describeKept(powers))[0]).toMatch(/^the conversation: 0 recent turns/);
  });
});
