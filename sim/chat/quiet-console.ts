/**
 * Keeps the chat readable: @endo/marshal reports every error it sends
 * across a connection with "Temporary logging of sent error" (and CapTP its
 * own rejections); in a chat those reports are noise, since the caller gets
 * the error anyway. Other console output passes through.
 */

const NOISE = [/^Temporary logging of sent error/, /^CapTP\b.*exception/];

const isNoise = (args: readonly unknown[]): boolean => {
  const head = args.map(arg => (typeof arg === 'string' ? arg : '')).join(' ');
  return NOISE.some(pattern => pattern.test(head));
};

/** Replaces the global console with a filtering one; returns a function that puts it back. */
export const quietConsole = (): (() => void) => {
  const original = globalThis.console;
  const filtered = (method: 'log' | 'error' | 'warn' | 'info' | 'debug') => {
    const target = original[method].bind(original);
    return (...args: unknown[]) => {
      if (!isNoise(args)) target(...args);
    };
  };
  const quiet: Console = Object.create(original, {
    log: { value: filtered('log') },
    error: { value: filtered('error') },
    warn: { value: filtered('warn') },
    info: { value: filtered('info') },
    debug: { value: filtered('debug') },
  }) as Console;
  globalThis.console = quiet;
  return () => {
    globalThis.console = original;
  };
};
harden(quietConsole);
