/** Evaluates proposal source the way a daemon worker does: in a fresh SES Compartment. */
import { E, Far } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import { passStyleOf } from '@endo/pass-style';

type CompartmentConstructor = new (options: {
  __options__: true;
  globals: Record<string, unknown>;
}) => { evaluate(source: string): unknown };

// The same endowments the daemon's worker gives evaluated code.
const workerEndowments = harden({ E, Far, makeExo, M, console, TextEncoder, TextDecoder, URL });

export const evaluateSource = async (
  source: string,
  codeNames: readonly string[],
  values: readonly unknown[],
): Promise<unknown> => {
  const { Compartment } = globalThis as unknown as { Compartment: CompartmentConstructor };
  const globals: Record<string, unknown> = { ...workerEndowments };
  codeNames.forEach((name, index) => {
    globals[name] = values[index];
  });
  const compartment = new Compartment({ __options__: true, globals: harden(globals) });
  const value = harden(await compartment.evaluate(source));
  // The result crosses a connection back to the daemon, so it must be passable.
  passStyleOf(value);
  return value;
};
harden(evaluateSource);
