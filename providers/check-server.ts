/**
 * The start-up check: does the server LAL_HOST names answer as the API the
 * agent will speak (OpenAI-compatible, Ollama, Anthropic), and does it serve
 * the model LAL_MODEL names? Each problem is one sentence that names the
 * setting to change and its value; when the answer shows another API, the
 * sentence says which and how to reach it (in both directions: /v1 added or
 * taken away, LAL_PROVIDER changed; Anthropic's list told from an
 * OpenAI-compatible one, since both sit at /v1/models).
 */
import type { ProviderConfig } from './config.js';
import { closestNames } from './closest-names.js';
import { firstChatModel, sameModel } from './model-names.js';
import { displayHost } from './display-host.js';
import { badPortProblem } from './bad-port.js';
import { takesConnection } from './takes-connection.js';
import {
  fetchModelList,
  listProblem,
  listUrl,
  seconds,
  type ListAnswer,
  type ListOptions,
} from './list-models.js';

export interface ServerCheck {
  /** The models the server lists (empty when it lists none or could not be asked). */
  models: string[];
  /** What is wrong, one sentence a person acts on; undefined when nothing is. */
  problem?: string;
  /** False when the model cannot be used as configured: the agent would fail on every message. */
  usable: boolean;
  /** True when the server refused the credentials (the key is what to change). */
  refused?: boolean;
}

export interface CheckOptions extends ListOptions {
  /** Whether LAL_HOST was set (else the default Ollama address was tried). */
  hostFromEnv?: boolean;
}

const V1 = /\/v1\/?$/;
const withoutV1 = (host: string) => host.replace(V1, '');
const SERVICE = {
  openai: 'an OpenAI-compatible API',
  ollama: "Ollama's API",
  anthropic: "Anthropic's API",
};

/**
 * Whether a list answers at `url`, and whether it is Anthropic's (whose list is also at
 * /v1/models): its list, or its refusal of a list asked without its key.
 */
const listAt = async (url: string, config: ProviderConfig, options: ListOptions) => {
  const answer = await fetchModelList(url, config, options);
  if (answer.kind === 'http') return answer.anthropic ? 'anthropic' : 'none';
  return answer.kind === 'list' ? (answer.shape === 'anthropic' ? 'anthropic' : 'other') : 'none';
};
const lists = async (url: string, config: ProviderConfig, options: ListOptions) =>
  (await listAt(url, config, options)) === 'other';

/** The advice when the list at /v1/models is Anthropic's: its address has no /v1, and it needs a key. */
const anthropicAdvice = (config: ProviderConfig) =>
  `it is Anthropic's API: set LAL_PROVIDER=anthropic and LAL_HOST to ${displayHost(withoutV1(config.host))}${config.authToken === undefined ? ', and LAL_AUTH_TOKEN (or LAL_AUTH_TOKEN_FILE) to your key' : ''}`;

/** Where the API the config expects is not: which API answers nearby, and the settings that reach it. */
const findOtherApi = async (
  config: ProviderConfig,
  options: ListOptions,
): Promise<string | undefined> => {
  const where = displayHost(config.host);
  const base = displayHost(withoutV1(config.host));
  const hasV1 = V1.test(config.host);
  if (config.kind === 'openai') {
    const underV1 = hasV1 ? 'none' : await listAt(`${config.host}/v1/models`, config, options);
    if (underV1 === 'anthropic') return anthropicAdvice(config);
    if (underV1 === 'other')
      return `OpenAI-compatible servers answer under /v1: set LAL_HOST to ${where}/v1`;
    if (await lists(`${withoutV1(config.host)}/api/tags`, config, options))
      return `it is Ollama's native API: set LAL_PROVIDER=ollama and LAL_HOST to ${base}`;
    return undefined;
  }
  if (config.kind === 'ollama') {
    if (hasV1 && (await lists(`${withoutV1(config.host)}/api/tags`, config, options)))
      return `Ollama's native API is at the address without /v1: set LAL_HOST to ${base} (or LAL_PROVIDER=openai for its OpenAI-compatible API at ${where})`;
    const atModels = await listAt(`${config.host}/models`, config, options);
    if (atModels === 'anthropic' && hasV1) return anthropicAdvice(config);
    if (atModels === 'other') return `it is an OpenAI-compatible server: set LAL_PROVIDER=openai`;
    const underV1 = hasV1 ? 'none' : await listAt(`${config.host}/v1/models`, config, options);
    if (underV1 === 'anthropic') return anthropicAdvice(config);
    if (underV1 === 'other')
      return `it is an OpenAI-compatible server: set LAL_HOST to ${where}/v1 (and LAL_PROVIDER=openai if you set it)`;
    return undefined;
  }
  if (await lists(`${config.host}/api/tags`, config, options))
    return `it is Ollama's native API: set LAL_PROVIDER=ollama`;
  if (await lists(`${config.host}/models`, config, options))
    return `it is an OpenAI-compatible server: set LAL_PROVIDER=openai`;
  return undefined;
};

/** Whether the list holds the model (Ollama's `:latest` tag and Anthropic's dated ids count). */
const listsModel = (models: readonly string[], config: ProviderConfig): boolean =>
  models.some(
    name =>
      sameModel(name, config.model) ||
      (config.kind === 'anthropic' && name.startsWith(`${config.model}-`)),
  );

/** Paths of a chat endpoint that a LAL_HOST may end with by mistake, and what to cut. */
const ENDPOINTS =
  /\/(?:v1\/)?(?:chat\/completions|completions|messages)\/?$|\/api\/(?:chat|generate)\/?$/;

/** A LAL_HOST that names the chat endpoint itself (…/v1/chat/completions): the address to use instead. */
const endpointProblem = (config: ProviderConfig): string | undefined => {
  const match = ENDPOINTS.exec(config.host);
  if (match === null) return undefined;
  const base = config.host.slice(0, match.index);
  const address = config.kind === 'openai' && match[0].startsWith('/v1/') ? `${base}/v1` : base;
  return `LAL_HOST names the chat endpoint ${displayHost(config.host)}, not the server's address — set LAL_HOST to ${displayHost(address)} (the agent adds the endpoint's path itself).`;
};

/** The list came from another API than the one configured (an OpenAI-compatible server asked as Anthropic). */
const shapeProblem = (shape: string, config: ProviderConfig, where: string): string | undefined => {
  // Anthropic's list at /v1/models looks like an OpenAI server's place for it; its chat endpoint is not.
  if (config.kind === 'openai' && shape === 'anthropic' && V1.test(config.host))
    return `${where} is not an OpenAI-compatible API: ${anthropicAdvice(config)}.`;
  if (config.kind !== 'anthropic' || (shape !== 'openai' && shape !== 'ollama')) return undefined;
  const advice =
    shape === 'openai'
      ? `set LAL_PROVIDER=openai and LAL_HOST to ${where}/v1`
      : `set LAL_PROVIDER=ollama`;
  return `${where} is not Anthropic's API (its model list is ${shape === 'openai' ? 'an OpenAI-compatible' : "Ollama's"} one) — ${advice}.`;
};

/** A host name that no name server knows (a typo, or a machine not on this network). */
const unresolved = (reason: string) => /ENOTFOUND|EAI_AGAIN/.test(reason);

/**
 * What a failed look-up of LAL_HOST's name means. ENOTFOUND is a name no name server knows: a typo,
 * or a machine cut off from the name servers that would know it. EAI_AGAIN is a look-up no name
 * server answered, which is what a machine without network gets: the network first, a typo second.
 */
const unresolvedProblem = (name: string, reason: string): string =>
  reason.includes('EAI_AGAIN')
    ? `The host name "${name}" in LAL_HOST could not be looked up (${reason}): no name server answered — is this machine online? Check its network and DNS (or LAL_HOST for a typo), or use the machine's IP address.`
    : `The host name "${name}" in LAL_HOST does not resolve (${reason}): a typo in LAL_HOST, or this machine has no network or name server (is it online?) — check the name, or use the machine's IP address.`;

/** How long the connection itself is given, once the request went unanswered (a loopback one is at once). */
const CONNECT_MS = 2_000;

/**
 * No answer within the check's time: a server that took the connection and
 * said nothing (a model loading, a server busy) told apart from a connection
 * that went nowhere (a firewall dropping it, a machine down), which a refused
 * one is not: that is "Nothing answers".
 */
const silentProblem = async (host: string, ms: number): Promise<ServerCheck> => {
  const where = displayHost(host);
  const problem = (await takesConnection(host, CONNECT_MS))
    ? `${where} took the connection but sent no answer within ${seconds(ms)} — is the model server still loading a model, or busy? Wait until it answers (its own log says when it is ready), then start again; if it never does, restart it, or check that LAL_HOST names the model server.`
    : `Nothing at ${where} took the connection within ${seconds(ms)} (a firewall dropping it, or a machine that is down?) — check LAL_HOST, and that this machine can reach that one.`;
  return { models: [], usable: false, problem };
};

/** The models to name: the closest to the one wanted first, at most twelve. */
const nameModels = (models: readonly string[], wanted: string): string => {
  const near = closestNames(wanted, models);
  const ordered = [...near, ...models.filter(name => !near.includes(name))];
  const shown = ordered.slice(0, 12);
  return `${shown.join(', ')}${ordered.length > shown.length ? ` and ${ordered.length - shown.length} more` : ''}`;
};

const checkList = (models: string[], config: ProviderConfig, where: string): ServerCheck => {
  if (!config.modelFromEnv && models.length > 0 && firstChatModel(models) === undefined)
    return {
      models,
      usable: false,
      problem: `${where} lists only embedding models (${nameModels(models, config.model)}), none to chat with — ${config.kind === 'ollama' ? `run \`ollama pull ${config.model}\` or ` : ''}set LAL_MODEL to a chat model the server has.`,
    };
  if (config.modelFromEnv && models.length > 0 && !listsModel(models, config)) {
    const pull = config.kind === 'ollama' ? `run \`ollama pull ${config.model}\` or ` : '';
    return {
      models,
      usable: false,
      // Quoted as JSON: a name that kept a stray quote from .env shows it escaped, not doubled.
      problem: `${where} does not serve the model ${JSON.stringify(config.model)} that LAL_MODEL names; it has ${nameModels(models, config.model)} — ${pull}set LAL_MODEL to ${models.length === 1 ? 'it' : 'one of them'}.`,
    };
  }
  if (models.length === 0)
    return {
      models,
      usable: false,
      problem: `${where} lists no models${config.kind === 'ollama' ? ` — run \`ollama pull ${config.model}\`` : ''}.`,
    };
  return { models, usable: true };
};

/** What to change when the server gives no list and LAL_MODEL names no model: the address, the API, or LAL_MODEL. */
const noListAdvice = (answer: ListAnswer, config: ProviderConfig): string =>
  answer.kind === 'http' && answer.status >= 500
    ? 'the server failed (its own log says why): mend it and start again, or set LAL_MODEL to the model to use so that its list is not needed.'
    : `is LAL_HOST the address of a model server speaking ${SERVICE[config.kind]} (the API LAL_PROVIDER, or the guess from LAL_HOST, names)? Check LAL_HOST and LAL_PROVIDER; a server that speaks it but lists no models needs LAL_MODEL set to the model to use.`;

export const checkServer = async (
  config: ProviderConfig,
  options: CheckOptions = {},
): Promise<ServerCheck> => {
  const where = displayHost(config.host);
  const endpoint = endpointProblem(config);
  if (endpoint !== undefined) return { models: [], usable: false, problem: endpoint };
  const answer: ListAnswer = await fetchModelList(listUrl(config), config, options);
  if (answer.kind === 'list') {
    const otherApi = shapeProblem(answer.shape, config, where);
    if (otherApi !== undefined) return { models: [], usable: false, problem: otherApi };
    return checkList(answer.models, config, where);
  }
  if (answer.kind === 'bad-port')
    return { models: [], usable: false, problem: badPortProblem(config.host) };
  if (answer.kind === 'unreachable' && unresolved(answer.reason)) {
    const name = new URL(config.host).hostname;
    return { models: [], usable: false, problem: unresolvedProblem(name, answer.reason) };
  }
  if (answer.kind === 'silent') return silentProblem(config.host, answer.ms);
  if (answer.kind === 'unreachable') {
    const next =
      options.hostFromEnv === false
        ? 'start Ollama, or set LAL_HOST (and LAL_MODEL, LAL_AUTH_TOKEN) to your model server'
        : 'is the model server running there? Check LAL_HOST';
    return {
      models: [],
      usable: false,
      problem: `Nothing answers at ${where} (${answer.reason}) — ${next}.`,
    };
  }
  // Anthropic's refusal of a keyless list, where another API was configured: the API is what to change.
  if (answer.kind === 'http' && answer.anthropic && config.kind !== 'anthropic')
    return {
      models: [],
      usable: false,
      problem: `${where} does not answer as ${SERVICE[config.kind]}: ${anthropicAdvice(config)}.`,
    };
  if (answer.kind === 'http' && (answer.status === 401 || answer.status === 403))
    return {
      models: [],
      usable: false,
      refused: true,
      problem: `${where} refuses the credentials (HTTP ${answer.status}) — set LAL_AUTH_TOKEN (or LAL_AUTH_TOKEN_FILE) to a valid key.`,
    };
  const other = await findOtherApi(config, options);
  if (answer.kind === 'web-page')
    return {
      models: [],
      usable: false,
      problem: `${where} answered with a web page, not ${SERVICE[config.kind]} — ${other ?? 'check LAL_HOST'}.`,
    };
  if (other !== undefined)
    return {
      models: [],
      usable: false,
      problem: `${where} does not answer as ${SERVICE[config.kind]}: ${other}.`,
    };
  const listed = listProblem(answer, where);
  // Some servers and proxies speak the API but list no models: with LAL_MODEL set the list is not
  // needed (advice, not a stop); without it there is no model to use, and most likely no model
  // server of that API at LAL_HOST (docs/troubleshooting.md).
  if (config.modelFromEnv) return { models: [], usable: true, problem: listed };
  return { models: [], usable: false, problem: `${listed} — ${noListAdvice(answer, config)}` };
};
harden(checkServer);
