/**
 * The set-up the "among others" tests share (behaviour 9): an agent, and a
 * second guest of the same host, `mallory`, who mails the agent as an
 * adversary would, with a scripted model that does whatever the latest
 * message asks.
 */
import { E } from '@endo/far';
import type { AgentRun, StartOptions } from './agent-harness.js';
import { makeMailHost, type DaemonProfile } from '../../sim/mail-host/index.js';
import type { RecordedRequest } from './scripted-provider.js';

/** Provides the guest `peer`, who knows the agent as its own name (run before the agent starts). */
export const providePeer = async (
  host: AgentRun['host'],
  agentName: string,
  peer = 'mallory',
): Promise<void> => {
  await E(host.host).provideGuest(peer, {
    agentName: `profile-for-${peer}`,
    introducedNames: { [agentName]: agentName },
  });
};

type Prepare = NonNullable<StartOptions['prepare']>;

/** A start option that provides the peers (and anything else) before the agent starts. */
export const withPeers =
  (peers: readonly string[], more?: Prepare): Prepare =>
  async (host, name) => {
    for (const peer of peers) await providePeer(host, name, peer);
    await more?.(host, name);
  };

/** The guest `peer` mails the agent. */
export const mailAs = (
  run: AgentRun,
  peer: string,
  text: string,
  attach: { edgeNames: string[]; petNames: string[] } = { edgeNames: [], petNames: [] },
): Promise<void> =>
  E(run.host.guest(peer).powers).send(
    run.name,
    [text, ...attach.edgeNames.map(() => '')],
    attach.edgeNames,
    attach.petNames,
  );

/** The tool results of the request, in order (what the model read of its calls). */
export const toolResults = (request: RecordedRequest | undefined): string[] =>
  (request?.messages ?? []).filter(message => message.role === 'tool').map(m => m.content);

/** The last tool result the model read in this request. */
export const lastResult = (request: RecordedRequest): string => toolResults(request).at(-1) ?? '';

const oddToolUrl = new URL('./odd-schema-tool.ts', import.meta.url).href;

/**
 * Fae with a `fetch` FaeTool the HOST installed (its result echoes what it
 * was asked: a page's words), alice and mallory other guests it knows by name.
 */
export const startFaeWithFetch = async (
  start: (options: StartOptions) => Promise<AgentRun>,
  profile: DaemonProfile,
  options: Pick<StartOptions, 'env' | 'clock' | 'provider'> = {},
): Promise<AgentRun> => {
  const host = makeMailHost({ profile });
  await E(host.host).makeUnconfined('worker-fetch', oddToolUrl, {
    resultName: 'fetch',
    env: { TOOL_NAME: 'fetch', SCHEMA: 'ok' },
  });
  return start({
    ...options,
    host,
    persona: 'fae',
    introducedNames: { fetch: 'fetch' },
    prepare: async (_host, name) => {
      for (const peer of ['alice', 'mallory']) {
        await providePeer(host, name, peer);
        await E(host.host).copy([peer], [`profile-for-${name}`, peer]);
      }
    },
  });
};
