/**
 * The one message format the agent keeps its transcript in. Each provider
 * converts it to and from its own API (see the provider modules).
 */

/**
 * A tool call as the model asked for it. `arguments` is the raw JSON text the
 * model wrote (kept raw so broken JSON can be reported back, never replaced).
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

interface SystemMessage {
  role: 'system';
  content: string;
}

interface UserMessage {
  role: 'user';
  content: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
}

export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  /** The name of the tool that was called (Ollama and some servers want it). */
  name: string;
  content: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** JSON Schema, as far as tool parameters need it. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  enum?: readonly (string | number | boolean | null)[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  [extra: string]: unknown;
}

/** An OpenAI-format tool schema: the format FaeTools declare and the agent offers. */
export interface ToolSchema {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: JsonSchema;
  };
}

export interface Usage {
  /** The whole prompt, cached part included. */
  inputTokens: number;
  outputTokens: number;
  /**
   * Input tokens the server read from its prompt cache (part of
   * inputTokens): Anthropic cache_read_input_tokens, OpenAI
   * prompt_tokens_details.cached_tokens, llama.cpp timings.cache_n. Absent
   * when the server does not say.
   */
  cachedInputTokens?: number;
}

/** How the model in use was chosen, and what else its server offers (told in the greeting). */
export interface ModelChoice {
  source: 'LAL_MODEL' | 'detected' | 'default';
  /** Every model the server listed (empty when it lists none or could not be asked). */
  offered: readonly string[];
  /** Why the list is missing, when it is. */
  problem?: string;
  /** Embedding models listed before the chat model chosen, passed over (detected only). */
  passedOver?: readonly string[];
}

export interface ChatOptions {
  /** Aborts the call in flight (cancellation), the stream included. */
  signal?: AbortSignal;
  /**
   * Told the reply's text so far each time more of it arrives (a streamed
   * reply): for a person to watch it grow. The whole reply still comes from
   * `chat`; a retry or a fallback starts the text again from nothing.
   */
  onText?: (textSoFar: string) => void;
}

export interface ChatResult {
  message: AssistantMessage;
  usage?: Usage;
  /** The model that served the call, when it is not the provider's own (a fallback). */
  model?: string;
  /**
   * The reply was cut by the output limit (OpenAI `finish_reason: "length"`, Anthropic
   * `stop_reason: "max_tokens"`, Ollama `done_reason: "length"`): its tool calls may be
   * incomplete, so none of them runs (src/loop/truncated-reply.ts).
   */
  truncated?: true;
}

/**
 * A model back end. `chat` resolves with the model's reply or rejects with a
 * ProviderError whose message is fit to show a person (no secrets in it).
 */
export interface Provider {
  /** 'anthropic' | 'openai' | 'ollama' | a test name. */
  readonly kind: string;
  readonly model: string;
  /** How `model` was chosen; set by createProviderFromEnv. */
  readonly choice?: ModelChoice;
  /** The servers behind this provider, in the order they are tried (a fallback chain). */
  readonly chain?: readonly { kind: string; model: string; host: string }[];
  /** The one server of the chain that serves `model`, alone (a helper agent's cheaper model); undefined when none does. */
  readonly only?: (model: string) => Provider | undefined;
  chat(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options?: ChatOptions,
  ): Promise<ChatResult>;
}

/** Why a provider call failed, in words a person can act on. */
export type ProviderErrorKind =
  | 'auth'
  | 'model-not-found'
  | 'rate-limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'bad-request'
  | 'config'
  | 'unknown';

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** `options.cause`: the error this one was made from, kept when one is wrapped. */
  constructor(kind: ProviderErrorKind, message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = status;
  }
}
harden(ProviderError);

/** The environment variables a caplet receives (`make(powers, context, { env })`). */
export type Env = Readonly<Record<string, string | undefined>>;
