/**
 * Shared by the setup tests on the newest daemon (setup-newest, agent-manager):
 * the environment replaced per test, the output captured (the scripts' `say`
 * lines and the agents' logs on stderr), a wire model that answers "pong" to
 * every message, and look-ups of the host's inbox.
 */
import { afterAll, afterEach, onTestFinished, vi } from 'vitest';
import { E } from '@endo/far';
import type { MessageRecord, makeMailHost } from '../../sim/mail-host/index.js';
import { startModelServer, type ModelServer } from '../../sim/model-server/index.js';
import { PASSED_ENV_NAMES } from '../../setup.js';
import { SANDBOX_ENV_NAMES } from '../../tools/lib/tool-settings.js';
import { printStderrLines } from '../../providers/stderr-sink.js';
import { useTempFolders } from './temp-folders.js';
import { toolModuleFiles, type ToolName } from '../../tools/index.js';

type MailHost = ReturnType<typeof makeMailHost>;

export const agentSource = new URL('../../agent.ts', import.meta.url).href;
export const managerSource = new URL('../../agent-manager.ts', import.meta.url).href;
export const echoSource = new URL('./env-echo-caplet.ts', import.meta.url).href;
/** A tool's module as the tests load it: its TypeScript source beside the built name tools/index.ts gives. */
export const toolSource = (name: ToolName) =>
  new URL(`../../tools/${toolModuleFiles[name].replace(/\.js$/, '.ts')}`, import.meta.url).href;

const SETUP_NAMES = ['LAL_NAME', 'LAL_RESTART', 'LAL_PIN', 'LAL_FORM', 'LAL_WORKER', 'FAE_GUEST'];
const ENDO_LLM_NAMES = ['ENDO_LLM_HOST', 'ENDO_LLM_MODEL', 'ENDO_LLM_AUTH_TOKEN', 'ENDO_LLM_NAME'];

/** Replaces the whole environment the scripts read: every variable they look at is unset first. */
export const stubEnv = (values: Record<string, string>) => {
  for (const name of [...PASSED_ENV_NAMES, ...SANDBOX_ENV_NAMES, ...SETUP_NAMES, ...ENDO_LLM_NAMES])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
};

/**
 * The scripts' lines and everything written to the standard streams meanwhile, within one test:
 * the agents' logs among it, printed while it captures (the test run's setup turns their sink off,
 * test/support/quiet-logs.ts).
 */
export const captureOutput = () => {
  const printed = printStderrLines(true);
  onTestFinished(() => {
    printStderrLines(printed);
  });
  const chunks: string[] = [];
  const say = (line: string) => {
    chunks.push(line);
  };
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
      chunks.push(String(chunk));
      return true;
    });
  }
  return { say, text: () => chunks.join('\n') };
};

export const textOf = (message: MessageRecord): string =>
  message.type === 'package' ? message.strings.join('') : '';

export const hostInboxTexts = async (mailHost: MailHost): Promise<string[]> =>
  (await E(mailHost.host).listMessages()).map(textOf);

export const waitForText = (mailHost: MailHost, prefix: string) =>
  mailHost.waitForMessage(message => textOf(message).startsWith(prefix));

/** An OpenAI-wire model that answers each message "pong: <its text>", and lets in only `apiKey` when given. */
export const startPongModel = async (apiKey?: string): Promise<ModelServer> =>
  startModelServer({
    protocol: 'openai',
    ...(apiKey === undefined ? {} : { apiKey }),
    reply: request => {
      const notice = request.messages.filter(message => message.role === 'user').at(-1)?.text ?? '';
      const messageNumber = Number([...notice.matchAll(/#(\d+)/g)].pop()?.[1]);
      const said = /\bping [a-z-]+/.exec(notice)?.[0] ?? 'something';
      return {
        toolCalls: [{ name: 'reply', arguments: { messageNumber, strings: [`pong: ${said}`] } }],
      };
    },
  });

/**
 * What a file of setup runs needs around them: the environment and the spies put back after
 * each test; folders (`tempFolder(label)`) and pong models (`pongModel()`) made in its tests,
 * removed and closed after them all.
 */
export const useSetupRuns = () => {
  const tempFolder = useTempFolders();
  const models: ModelServer[] = [];
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all(models.splice(0).map(model => model.close()));
  });
  const pongModel = async (apiKey?: string): Promise<ModelServer> => {
    const model = await startPongModel(apiKey);
    models.push(model);
    return model;
  };
  return { tempFolder, pongModel };
};
