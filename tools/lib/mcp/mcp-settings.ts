/**
 * What the MCP bridge caplet is told by its env, read and checked once when
 * it is made: which server (a command it starts over stdio, or a URL), how
 * the started one is confined, and how long a call may take. A bad value is
 * refused with an error naming the variable; the bearer token is never read
 * here (only its file's path), so nothing that holds these settings holds it.
 */
import { b, Fail, makeError, q, X } from '@endo/errors';
import path from 'node:path';
import type { Env } from '../../../providers/types.js';
import { FLAG_EXPECTED, readFlag } from '../../../providers/read-flag.js';
import { readSandboxSettings, type SandboxSettings } from '../sandbox/sandbox-settings.js';
import { DEFAULT_MCP_TIMEOUT_MS } from '../tool-settings.js';

/** The longest a host may allow one call. */
const LARGEST_MCP_TIMEOUT_MS = 600_000;
harden(LARGEST_MCP_TIMEOUT_MS);

/** CPU seconds a sandboxed server may use in its life (it is restarted at the next call past it). */
const DEFAULT_SERVER_CPU_SECONDS = 3600;
harden(DEFAULT_SERVER_CPU_SECONDS);

/** A variable MCP_ENV may name: a plain identifier, never one the sandbox sets itself. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const RESERVED_ENV = new Set(['PATH', 'HOME', 'PWD', 'MCP_AUTH_TOKEN_FILE', 'MCP_AUTH_TOKEN']);
/** The bridge's name: what `mcp-<name>` and the log lines say. */
const SERVER_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

export type McpServerSpec =
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      /** MCP_ENV's names and their values as the bridge's env holds them (only those set). */
      passEnv: Record<string, string>;
      /** The only writable folder of a sandboxed server, and its working directory. */
      cwd: string;
      /** MCP_READ_ONLY: more folders a sandboxed server may read (at their own paths). */
      readOnly: string[];
      sandbox: SandboxSettings;
    }
  | { kind: 'http'; url: string; tokenFile: string | undefined };

export interface McpSettings {
  name: string;
  server: McpServerSpec;
  timeoutMs: number;
}

const readName = (env: Env): string => {
  const name = (env.MCP_NAME ?? 'server').trim();
  SERVER_NAME.test(name) ||
    Fail`mcp: MCP_NAME must be 1 to 40 lower-case letters, digits or -, starting with a letter or digit, got ${q(env.MCP_NAME)}`;
  return name;
};

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(each => typeof each === 'string');

/**
 * The daemon at f0a46042a writes a caplet's env with q(), which wraps a
 * string that starts with "[" in "[…]" (read back as is after a restart):
 * MCP_ARGS stored as `["a"]` by an earlier setup comes back `[["a"]]`, a
 * list of a list. The inner list is what was stored. setup-tools now stores
 * it after a space (storableMcpArgs), which the daemon keeps as written.
 */
const unwrapDaemonMark = (raw: string): string[] | undefined => {
  const found = /^\s*\[(\[[\s\S]*\])\]\s*$/.exec(raw);
  if (found === null) return undefined;
  try {
    const inner: unknown = JSON.parse(found[1]!);
    return isStringList(inner) ? inner : undefined;
  } catch {
    return undefined;
  }
};

const readArgs = (raw: string | undefined): string[] => {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw makeError(X`mcp: MCP_ARGS must be a JSON array of strings, got ${q(raw)}, not JSON`);
  }
  if (isStringList(parsed)) return parsed;
  const unwrapped = unwrapDaemonMark(raw);
  if (unwrapped !== undefined) return unwrapped;
  // The value as read: q() shows a string that starts with "[" as "[[…]" (its mark for text, not a list).
  throw makeError(X`mcp: MCP_ARGS must be a JSON array of strings, got ${q(parsed)}`);
};

/**
 * MCP_ARGS as setup-tools stores it in the bridge's formula: after a space,
 * so it does not start with "[" and the daemon at f0a46042a keeps it as
 * written (JSON allows the space; readArgs reads both).
 */
export const storableMcpArgs = (raw: string | undefined): string | undefined =>
  raw === undefined || !raw.trimStart().startsWith('[') ? raw : ` ${raw.trim()}`;
harden(storableMcpArgs);

/** The names MCP_ENV lists, separated by commas or spaces: setup picks them, the bridge checks them. */
export const mcpEnvNames = (raw: string | undefined): string[] =>
  (raw ?? '').split(/[\s,]+/).filter(each => each !== '');
harden(mcpEnvNames);

const readPassEnv = (env: Env): Record<string, string> => {
  const passed: Record<string, string> = {};
  for (const name of mcpEnvNames(env.MCP_ENV)) {
    (ENV_NAME.test(name) && !RESERVED_ENV.has(name)) ||
      Fail`mcp: MCP_ENV names variables to pass to the server, separated by commas; ${q(name)} cannot be one`;
    const value = env[name];
    if (value !== undefined) passed[name] = value;
  }
  return passed;
};

const readReadOnly = (raw: string | undefined): string[] => {
  const places = (raw ?? '')
    .split(/[,:]/)
    .map(each => each.trim())
    .filter(each => each !== '');
  for (const place of places) {
    path.isAbsolute(place) ||
      Fail`mcp: MCP_READ_ONLY lists absolute folders, separated by commas; got ${q(place)}`;
  }
  return places.map(place => path.resolve(place));
};

const readTimeout = (raw: string | undefined): number => {
  if (raw === undefined || raw.trim() === '') return DEFAULT_MCP_TIMEOUT_MS;
  const value = Number(raw.trim());
  (Number.isSafeInteger(value) && value >= 1 && value <= LARGEST_MCP_TIMEOUT_MS) ||
    Fail`mcp: MCP_TIMEOUT_MS must be a whole number of milliseconds from 1 to ${q(LARGEST_MCP_TIMEOUT_MS)}, got ${q(raw)}`;
  return value;
};

const readUrl = (raw: string): string => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined) throw makeError(X`mcp: MCP_URL must be an http(s) URL, got ${q(raw)}`);
  // Checked first and said without the URL, which then carries a secret.
  (url.username === '' && url.password === '') ||
    Fail`mcp: MCP_URL must not carry a user or password; put a bearer token in MCP_AUTH_TOKEN_FILE`;
  url.protocol === 'http:' ||
    url.protocol === 'https:' ||
    Fail`mcp: MCP_URL must be an http(s) URL, got ${q(raw)}`;
  return url.href;
};

export const readMcpSettings = (env: Env | undefined): McpSettings => {
  const source = env ?? {};
  const name = readName(source);
  const timeoutMs = readTimeout(source.MCP_TIMEOUT_MS);
  const command = (source.MCP_COMMAND ?? '').trim();
  const url = (source.MCP_URL ?? '').trim();
  // Named, never shown: the token is no part of the message.
  (source.MCP_AUTH_TOKEN ?? '') === '' ||
    Fail`mcp: MCP_AUTH_TOKEN is not read: put the token in a file and name it in MCP_AUTH_TOKEN_FILE, so the daemon stores a path, never the token`;
  command === '' || url === '' || Fail`mcp: set MCP_COMMAND (a local server) or MCP_URL, not both`;
  if (url !== '') {
    const tokenFile = source.MCP_AUTH_TOKEN_FILE?.trim() || undefined;
    tokenFile === undefined ||
      path.isAbsolute(tokenFile) ||
      Fail`mcp: MCP_AUTH_TOKEN_FILE must be an absolute path, got ${q(tokenFile)}`;
    return harden({ name, timeoutMs, server: { kind: 'http', url: readUrl(url), tokenFile } });
  }
  command !== '' ||
    Fail`mcp: set MCP_COMMAND (and MCP_ARGS, MCP_CWD) to start a local server, or MCP_URL`;
  const cwd = (source.MCP_CWD ?? '').trim();
  (cwd !== '' && path.isAbsolute(cwd)) ||
    Fail`mcp: MCP_CWD must be the absolute path of the folder the server may write in, got ${q(source.MCP_CWD ?? '')}`;
  for (const flag of ['MCP_UNSANDBOXED', 'MCP_ALLOW_NETWORK']) {
    readFlag(
      source[flag],
      false,
      () => Fail`mcp: ${b(flag)} must be ${b(FLAG_EXPECTED)}, got ${q(source[flag])}`,
    );
  }
  const limits = readSandboxSettings(
    {
      FAE_SANDBOX_MAX_PROCESSES: source.FAE_SANDBOX_MAX_PROCESSES,
      FAE_SANDBOX_MEMORY_MB: source.FAE_SANDBOX_MEMORY_MB,
      // RLIMIT_CPU counts a process's whole life: a server that lives for hours gets an hour.
      FAE_SANDBOX_CPU_SECONDS: source.FAE_SANDBOX_CPU_SECONDS ?? String(DEFAULT_SERVER_CPU_SECONDS),
      FAE_SANDBOX_FILE_MB: source.FAE_SANDBOX_FILE_MB,
      FAE_RUN_COMMAND_UNSANDBOXED: source.MCP_UNSANDBOXED,
      FAE_SANDBOX_ALLOW_NETWORK: source.MCP_ALLOW_NETWORK,
    },
    'mcp',
  );
  return harden({
    name,
    timeoutMs,
    server: {
      kind: 'stdio',
      command,
      args: readArgs(source.MCP_ARGS),
      passEnv: readPassEnv(source),
      cwd: path.resolve(cwd),
      readOnly: readReadOnly(source.MCP_READ_ONLY),
      sandbox: limits,
    },
  });
};
harden(readMcpSettings);
