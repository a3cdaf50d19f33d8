/**
 * What a person should change when a server answers in a way that shows the
 * agent is talking to the wrong kind of server, or asks too much of it.
 */
import { displayHost } from './display-host.js';

interface Where {
  service: string;
  host: string;
}

const V1 = /\/v1\/?$/;

/** The host with /v1 added, where OpenAI-compatible servers serve their API. */
const withV1 = (host: string): string => `${displayHost(host).replace(/\/+$/, '')}/v1`;

/** What to set when the Ollama provider got no Ollama answer: /v1 belongs to its OpenAI-compatible API. */
const notOllamaAdvice = (host: string): string =>
  V1.test(host)
    ? `Ollama's native API is at the address without /v1: set LAL_HOST to ${displayHost(host).replace(V1, '')}, or LAL_PROVIDER=openai to use the OpenAI-compatible API at ${displayHost(host)}`
    : `For an OpenAI-compatible server (llama.cpp, vLLM, LM Studio), set LAL_HOST to ${withV1(host)}`;

/** For a 404 on the chat endpoint. */
export const wrongEndpointHint = ({ service, host }: Where): string => {
  if (service === 'Ollama') {
    return `Check LAL_HOST: is it an Ollama server? ${notOllamaAdvice(host)}.`;
  }
  if (service.startsWith('OpenAI') && !/\/v1\/?$/.test(host)) {
    return `Check LAL_HOST: OpenAI-compatible servers usually answer under /v1 (try ${withV1(host)}).`;
  }
  return 'Check LAL_HOST.';
};
harden(wrongEndpointHint);

/** What a body without fields is, in words ("an empty object", not "a object"). */
const shapeOf = (body: unknown): string => {
  if (body === null) return 'null';
  if (Array.isArray(body)) return body.length === 0 ? 'an empty array' : 'an array';
  if (typeof body === 'object') return 'an empty object';
  return `a ${typeof body}`;
};

/** For an answer that is not the shape the chat endpoint gives. */
export const wrongShapeHint = ({ service, host }: Where, body: unknown): string => {
  const fields =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.keys(body).slice(0, 6)
      : [];
  const has = fields.length === 0 ? shapeOf(body) : `fields ${fields.join(', ')}`;
  if (service === 'Anthropic') {
    const openAiShaped = fields.includes('choices');
    const ollamaShaped = fields.includes('message') && fields.includes('done');
    const advice = openAiShaped
      ? '. It looks like an OpenAI-compatible server: set LAL_PROVIDER=openai'
      : ollamaShaped
        ? ". It looks like Ollama's native API: set LAL_PROVIDER=ollama"
        : '';
    return `${service} at ${displayHost(host)} answered with something that is not an Anthropic message (no content list; it has ${has})${advice}.`;
  }
  if (service === 'Ollama') {
    const openAiShaped = fields.includes('choices');
    return `${service} at ${displayHost(host)} answered with something that is not an Ollama chat reply (no message; it has ${has})${
      openAiShaped ? ', as an OpenAI-compatible server answers' : ''
    }. ${notOllamaAdvice(host)}.`;
  }
  const ollamaShaped = fields.includes('message') && fields.includes('done');
  return `${service} at ${displayHost(host)} answered with something that is not an OpenAI chat completion (no choices with a message; it has ${has})${
    ollamaShaped
      ? ". It looks like Ollama's native API: set LAL_PROVIDER=ollama and LAL_HOST without /v1"
      : ''
  }.`;
};
harden(wrongShapeHint);

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * llama.cpp refuses a prompt longer than its context (`exceed_context_size_error`
 * with n_prompt_tokens and n_ctx; older builds only say so in words). Returns the
 * end of a sentence that names the sizes and the two ways out, or undefined.
 */
export const contextOverflow = (
  serverText: string | undefined,
  details: unknown,
): string | undefined => {
  const record =
    details !== null && typeof details === 'object' ? (details as Record<string, unknown>) : {};
  const text = serverText ?? '';
  const isOverflow =
    record.type === 'exceed_context_size_error' ||
    /exceeds? the available context size|context (length|window|size) (exceeded|is too small)/i.test(
      text,
    );
  if (!isOverflow) return undefined;
  const needed =
    count(record.n_prompt_tokens) ?? count(Number(/request \((\d+) tokens\)/.exec(text)?.[1]));
  const size =
    count(record.n_ctx) ?? count(Number(/context size \((\d+) tokens\)/.exec(text)?.[1]));
  const sizes =
    needed !== undefined && size !== undefined
      ? `: the request needed ${needed} tokens and the server's context is ${size} tokens`
      : needed !== undefined
        ? `: the request needed ${needed} tokens`
        : '';
  return `${sizes}. Start the server with a larger context (llama.cpp: -c ${size === undefined ? 32768 : Math.max(size * 2, 32768)}) or lower LAL_CONTEXT_TOKENS${size === undefined ? '' : ` below ${Math.floor(size * 0.75)}`}.`;
};
harden(contextOverflow);
