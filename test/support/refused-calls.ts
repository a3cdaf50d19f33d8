/**
 * Guest powers that pass every call on, through E(), and keep each call the daemon refuses
 * (method and message): what its CapTP would write into the agent's worker log at f0a46042a and
 * on the newest daemon, stack and all (issue 46, "a quiet log, nothing raw").
 */
import { E, Far } from '@endo/far';

export const recordRefusals = () => {
  const refused: string[] = [];
  const wrap = async (powers: unknown): Promise<unknown> => {
    const far = powers as Record<string, (...args: unknown[]) => unknown>;
    const names = (await E(far).__getMethodNames__!()) as string[];
    const methods: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of names.filter(method => method !== '__getMethodNames__'))
      methods[name] = (...args: unknown[]) =>
        Promise.resolve(E(far)[name]!(...args)).catch((error: unknown) => {
          refused.push(`${name}: ${(error as Error).message}`);
          throw error;
        });
    return Far('EndoGuest', methods);
  };
  return { refused, wrap };
};
