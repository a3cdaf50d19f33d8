/**
 * Types of the wire-level model service doubles: what a reply script sees
 * (a request normalised across the three protocols) and what it answers.
 */

export type ModelProtocol = 'openai' | 'anthropic' | 'ollama';

export interface NormalizedToolCall {
  id: string;
  name: string;
  /** As sent: a string for OpenAI, an object for Anthropic and Ollama. */
  arguments: unknown;
}

/** One message of a request, read back from the wire (not via our converters). */
export interface NormalizedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  toolCalls?: NormalizedToolCall[];
  /** For role 'tool': the call it answers (Ollama may give only a tool name). */
  toolCallId?: string;
  toolName?: string;
}

export interface NormalizedRequest {
  protocol: ModelProtocol;
  /** 0 for the first chat request this server received, then 1, 2, ... */
  index: number;
  model: string;
  /** A top-level system prompt (Anthropic) comes first, as role 'system'. */
  messages: NormalizedMessage[];
  toolNames: string[];
  maxTokens: number | undefined;
  /** Size of the request body. */
  bytes: number;
}

export interface ScriptedToolCall {
  name: string;
  /** An object, or raw text (OpenAI only can carry text that is not an object). */
  arguments: Record<string, unknown> | string;
  /** The call id to send; made up when absent (and for Ollama, left out). */
  id?: string;
}

/** A model's answer: text, tool calls, or both. */
export interface ScriptedAnswer {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /**
   * Token counts to report; estimated from sizes when absent. Cached input
   * tokens (part of inputTokens) come from the server's prompt cache when not given.
   */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number };
  /**
   * Cut by the output limit: answered with OpenAI's `finish_reason: "length"`, Anthropic's
   * `stop_reason: "max_tokens"` or Ollama's `done_reason: "length"`.
   */
  truncated?: boolean;
  /** Streamed answers only: the frames stop after this many and the response stays open (a stall mid-reply). */
  stallAfterFrames?: number;
  /** Streamed answers only: the pause between two frames (a model writing as it thinks). */
  frameGapMs?: number;
}

/** An HTTP failure in the service's own error shape. */
export interface ScriptedFailure {
  failure: {
    status: number;
    message?: string;
    /** Sent as the Retry-After header (seconds or an HTTP date). */
    retryAfter?: string;
  };
}

/** Never answers (until the client gives up or the server closes). */
interface ScriptedHang {
  hang: true;
}

/** Waits, then answers as `then` says. */
interface ScriptedDelay {
  delayMs: number;
  then: ScriptedReply;
}

export type ScriptedReply = ScriptedAnswer | ScriptedFailure | ScriptedHang | ScriptedDelay;

export type ReplyScript = (request: NormalizedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names; authorization, x-api-key and cookie are left out. */
  headers: Record<string, string>;
  /** When it arrived (performance.now() of the server's process). */
  receivedAt: number;
  /** When its answer was finished (the response closed; same clock); undefined until then. */
  answeredAt?: number;
  /** Whether a credential header (authorization or x-api-key) was present. */
  hadAuth: boolean;
  bytes: number;
  /** The parsed JSON body (undefined for GET or unparseable bodies). */
  body: unknown;
  /** Set for chat requests that passed validation. */
  normalized?: NormalizedRequest;
  /** The status answered; undefined while pending or if never answered. */
  status?: number;
  /** The error body answered, when the status was not 200. */
  errorBody?: unknown;
  /** For an answer streamed: how many frames (events, lines) were written. */
  streamedFrames?: number;
}

export interface ModelServerOptions {
  protocol: ModelProtocol;
  reply: ReplyScript;
  port?: number;
  /** When set, requests must carry this key (Bearer, or x-api-key for Anthropic). */
  apiKey?: string;
  /** When set, any other model name gets the service's "model not found" error; also what the model list answers. */
  models?: readonly string[];
  /** The model list route answers this status with the service's error body instead (e.g. 404, 500). */
  modelListStatus?: number;
}

export interface ModelServer {
  /** The LAL_HOST to use (ends in /v1 for openai). */
  url: string;
  protocol: ModelProtocol;
  requests: RecordedRequest[];
  /** Resolves when at least `count` requests (of any kind) have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Stops listening: connections to the port are refused until accept() (the port is kept). */
  refuseConnections(): Promise<void>;
  /** Listens again on the same port after refuseConnections(). */
  acceptConnections(): Promise<void>;
  /** Total time spent between receiving requests and finishing their answers. */
  timeInsideServerMs(): number;
  /**
   * Empties the prompt cache (the next request reads nothing cached) and
   * returns how many prefixes it held: the memory bench reads the heap
   * without the double's bookkeeping.
   */
  forgetPromptCache(): number;
  close(): Promise<void>;
}
