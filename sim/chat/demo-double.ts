/**
 * `npm start -- --demo`: the scripted model double (sim/model-server's
 * demo-model.ts) started in this process on a free loopback port, and the
 * settings that point the agent at it in place of the person's own model
 * (their key is not sent to it, nor their LAL_MODEL: the agent takes the
 * double's one model from its list, as it says). Its conversation is kept apart from the
 * real model's, in a state folder of its own.
 */
import { startDemoServers } from '../model-server/demo-servers.js';
import { DEMO_MODEL } from '../model-server/demo-model.js';

export const startDemoDouble = async (env: Readonly<Record<string, string>>) => {
  const [server] = await startDemoServers(0, ['openai']);
  return {
    env: {
      ...env,
      LAL_HOST: server!.url,
      // Unset, not named: the agent takes the only model the double lists, and says so (not "as LAL_MODEL says").
      LAL_MODEL: '',
      LAL_PROVIDER: 'openai',
      LAL_AUTH_TOKEN: '',
      LAL_AUTH_TOKEN_FILE: '',
    },
    /** The model the double lists, the only one. */
    model: DEMO_MODEL,
    close: () => server!.close(),
  };
};
harden(startDemoDouble);
