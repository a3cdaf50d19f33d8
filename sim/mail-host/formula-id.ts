/**
 * Formula ids as the daemon writes them: `<formula number>:<node number>`,
 * 128 hex digits each at f0a46042a, 64 each in the newest daemon.
 */
import { randomBytes } from 'node:crypto';
import type { FormulaId } from './types.js';

const formulaIdPattern = /^([0-9a-f]{128}|[0-9a-f]{64}):([0-9a-f]{128}|[0-9a-f]{64})$/;

/** A fresh random 512-bit number in hex, as the daemon's `randomHex512`. */
export const randomHex512 = (): string => randomBytes(64).toString('hex');
harden(randomHex512);
/** A fresh random 256-bit number in hex, as the newest daemon's `randomHex256`. */
export const randomHex256 = (): string => randomBytes(32).toString('hex');
harden(randomHex256);

export const isFormulaId = (value: unknown): value is FormulaId =>
  typeof value === 'string' && formulaIdPattern.test(value);
harden(isFormulaId);

export const assertFormulaId = (value: unknown, petName?: string): FormulaId => {
  if (!isFormulaId(value)) {
    const forName = petName === undefined ? '' : ` for pet name ${JSON.stringify(petName)}`;
    throw Error(`Invalid formula identifier ${JSON.stringify(value)}${forName}`);
  }
  return value;
};
harden(assertFormulaId);

export const parseFormulaId = (id: FormulaId): { number: string; node: string } => {
  const match = formulaIdPattern.exec(id);
  if (match === null) throw Error(`Invalid formula identifier ${JSON.stringify(id)}`);
  return harden({ number: match[1] as string, node: match[2] as string });
};
harden(parseFormulaId);

/** Mints ids on one node (one simulated daemon); the newest daemon's numbers are half as long. */
export const makeIdMinter = (
  random: () => string = randomHex512,
  nodeNumber: string = random(),
) => {
  const mint = (): FormulaId => `${random()}:${nodeNumber}`;
  return harden({ nodeNumber, mint });
};
harden(makeIdMinter);
export type IdMinter = ReturnType<typeof makeIdMinter>;
