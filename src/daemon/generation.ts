/**
 * Which generation of the Endo daemon the agent lives in, told once at start
 * from the guest powers' method names: f0a46042a (the Lal/Fae design: HOST,
 * eval-proposals, `write`) or the newest (endo branch
 * agent/iroh-preserve-native-datagram-receivers: @host, `storeIdentifier`,
 * `editMessage`, channels; its own `evaluate` asks nobody, so what the agent
 * does about code is said beside the label: ./daemon-status.ts).
 */
import { E } from '@endo/far';

export type Generation = 'f0a46042a' | 'newest';

export const GENERATION_LABELS: Readonly<Record<Generation, string>> = harden({
  f0a46042a: 'the Endo daemon of the Lal/Fae design (f0a46042a: HOST, eval-proposals)',
  newest: 'the newest Endo daemon (@host, message edits, channels)',
});
harden(GENERATION_LABELS);

/** Reads the method names (a far object answers `__getMethodNames__`); an old daemon when they cannot be read. */
export const detectGeneration = async (
  powers: unknown,
): Promise<{ generation: Generation; methods: readonly string[] }> => {
  let methods: readonly string[] = [];
  try {
    const names: unknown = await E(
      powers as { __getMethodNames__(): string[] },
    ).__getMethodNames__();
    if (Array.isArray(names))
      methods = names.filter((name): name is string => typeof name === 'string');
  } catch {
    // Not a far object with introspection: treat it as the generation this project was built for.
  }
  const has = (name: string) => methods.includes(name);
  const generation: Generation =
    has('storeIdentifier') || has('editMessage') ? 'newest' : 'f0a46042a';
  return harden({ generation, methods });
};
harden(detectGeneration);
