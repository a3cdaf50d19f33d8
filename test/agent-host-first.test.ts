/**
 * The HOST first, even behind a flood (docs/behaviour.md 9.3), through
 * make() in the daemon double on both generations, counted in model
 * requests (not time): a peer sends 1,000 messages and the HOST one right
 * after, behind them in the mail stream; the HOST's message is the next
 * model request after those already under way when it was sent.
 */
import { describe, expect, test } from 'vitest';
import { TEST_MS, WAIT_MS } from './support/patience.js';
import { E } from '@endo/far';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const FLOOD = 1_000;

const isHostTurn = (request: RecordedRequest) =>
  /from (HOST|@host): the HOST asks/.test(request.messages.at(-1)?.content ?? '');

const answer: Step = request =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['ok'] });

describe.each(DAEMON_PROFILES)('the HOST first behind a flood, on the %s daemon', profile => {
  test(
    `behind ${FLOOD} of a peer's messages, the HOST's message is the next model request`,
    async () => {
      const run = await start({
        profile,
        // The peer is not held after a few turns in a row: only the order of service is at stake.
        env: { LAL_MAX_PEER_EXCHANGES: '5000', LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '5000' },
        steps: Array.from({ length: FLOOD + 2 }, () => answer),
        prepare: async (host, name) => {
          await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
        },
      });
      const bob = run.host.guest('bob').powers;
      for (let index = 0; index < FLOOD; index += 1)
        await E(bob).send('lal', [`flood ${index}`], [], []);
      // Requests made or under way for bob when the HOST speaks; one more may start as it arrives.
      const before = run.provider.requests.length;
      await run.send('the HOST asks: are you there?');
      await run.reply('ok', 2 * WAIT_MS);
      const hostAt = run.provider.requests.findIndex(isHostTurn);
      expect(hostAt).toBeGreaterThanOrEqual(before);
      expect(hostAt - before).toBeLessThanOrEqual(1);
    },
    2 * TEST_MS,
  );
});
