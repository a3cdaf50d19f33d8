/**
 * How runCommand confines a command, read once from the tool caplet's env
 * when the tool is made (its defaults and names: ../tool-settings.ts); a bad value is refused with an
 * error naming the variable.
 */
import { b, Fail, makeError, q, X } from '@endo/errors';
import type { Env } from '../../../providers/types.js';
import { FLAG_EXPECTED, readFlag } from '../../../providers/read-flag.js';
import { DEFAULT_SANDBOX_LIMITS } from '../tool-settings.js';

export interface SandboxSettings {
  /** FAE_RUN_COMMAND_UNSANDBOXED: the host's explicit opt-out; commands run with the worker's rights. */
  unsandboxed: boolean;
  /** FAE_SANDBOX_ALLOW_NETWORK: share the host's network instead of a namespace with only loopback. */
  allowNetwork: boolean;
  /** FAE_SANDBOX_MAX_PROCESSES: processes (and threads) the command may have at once. */
  maxProcesses: number;
  /** FAE_SANDBOX_MEMORY_MB: memory of the whole command (a memory cgroup, where one can be made) and address space of each process (RLIMIT_AS). */
  memoryBytes: number;
  /** FAE_SANDBOX_CPU_SECONDS: CPU time of each process (RLIMIT_CPU). */
  cpuSeconds: number;
  /** FAE_SANDBOX_FILE_MB: the largest file a command may write (RLIMIT_FSIZE). */
  fileBytes: number;
}

const MB = 1024 * 1024;
const readOnOff = (env: Env, name: string, toolName: string): boolean =>
  readFlag(env[name], false, () => {
    throw makeError(X`${b(toolName)}: ${b(name)} must be ${b(FLAG_EXPECTED)}, got ${q(env[name])}`);
  });

const readCount = (env: Env, name: string, fallback: number, toolName: string): number => {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  (Number.isSafeInteger(value) && value >= 1) ||
    Fail`${b(toolName)}: ${b(name)} must be a whole number of at least 1, got ${q(raw)}`;
  return value;
};

export const readSandboxSettings = (env: Env | undefined, toolName: string): SandboxSettings => {
  const source = env ?? {};
  return Object.freeze({
    unsandboxed: readOnOff(source, 'FAE_RUN_COMMAND_UNSANDBOXED', toolName),
    allowNetwork: readOnOff(source, 'FAE_SANDBOX_ALLOW_NETWORK', toolName),
    maxProcesses: readCount(
      source,
      'FAE_SANDBOX_MAX_PROCESSES',
      DEFAULT_SANDBOX_LIMITS.maxProcesses,
      toolName,
    ),
    memoryBytes:
      readCount(source, 'FAE_SANDBOX_MEMORY_MB', DEFAULT_SANDBOX_LIMITS.memoryMb, toolName) * MB,
    cpuSeconds: readCount(
      source,
      'FAE_SANDBOX_CPU_SECONDS',
      DEFAULT_SANDBOX_LIMITS.cpuSeconds,
      toolName,
    ),
    fileBytes:
      readCount(source, 'FAE_SANDBOX_FILE_MB', DEFAULT_SANDBOX_LIMITS.fileMb, toolName) * MB,
  });
};
harden(readSandboxSettings);
