/**
 * forget() waits for the serving loop; each call must not leave a hook
 * behind for the agent's cancellation once it is answered (a leak that grew
 * with every call for as long as the agent ran).
 */
import { describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { runAgent, type RunningAgent } from '../src/run-agent.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import { makeScriptedProvider } from './support/scripted-provider.js';

describe('forget() and cancellation hooks', () => {
  it('leaves no cancel hook per call once it is answered', async () => {
    const host = makeMailHost();
    await E(host.host).provideGuest('lal', { agentName: 'profile-for-lal' });
    let running: RunningAgent | undefined;
    const caplet = await host.startCaplet(
      (powers: unknown, context: unknown) => {
        running = runAgent({
          powers: powers as PowersRef,
          context,
          env: { LAL_PERSONA: 'lal' },
          createProvider: () => makeScriptedProvider([]),
          log: () => {},
        });
        return harden({});
      },
      { powersName: 'profile-for-lal', env: {}, workerName: 'worker-lal' },
    );
    try {
      await host.waitForMessage(
        message =>
          message.type === 'package' && /^Lal agent ready\./.test((message.strings ?? []).join('')),
      );
      const agent = running!;
      // The first answer means the serving loop has set itself up.
      await agent.forget();
      const before = agent.cancelHooks();
      for (let index = 0; index < 200; index += 1) await agent.forget();
      expect(agent.cancelHooks()).toBe(before);
      // A forget() still waiting when the agent stops is refused, not left hanging.
      const late = agent.forget();
      agent.cancel('test over');
      await expect(late).rejects.toThrow(/stopped/);
    } finally {
      await caplet.cancel('test over');
    }
  });
});
