/**
 * Runs the steps of the conformance sequence one by one and keeps what each
 * observed; a step that throws or hangs is recorded, and the sequence goes on.
 */
import { errorText, plain, type Outcome } from './outcome.js';

export interface Recorder {
  /** Runs `act`, records its value (or error) under `name`, and returns the value (undefined on error). */
  step<T>(name: string, act: () => Promise<T>): Promise<T | undefined>;
  readonly outcomes: readonly Outcome[];
}

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      value => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

export const makeRecorder = (stepTimeoutMs = 10_000): Recorder => {
  const outcomes: Outcome[] = [];
  return {
    outcomes,
    step: async (name, act) => {
      try {
        const value = await withTimeout(act(), stepTimeoutMs);
        outcomes.push({ step: name, ok: true, value: plain(value) });
        return value;
      } catch (error) {
        outcomes.push({ step: name, ok: false, value: errorText(error) });
        return undefined;
      }
    },
  };
};
harden(makeRecorder);
