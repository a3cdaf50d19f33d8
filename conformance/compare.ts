/**
 * The differences between two runs of the sequence, step by step: where both
 * answered with values, only the parts that differ (by path), else the whole outcome.
 */
import type { Outcome, Plain } from './outcome.js';

export interface Difference {
  readonly step: string;
  /** Lines that say what differs, `<path>: <left> | <right>`. */
  readonly lines: readonly string[];
}

const ABSENT = '(absent)';
const show = (value: Plain | undefined) => (value === undefined ? ABSENT : JSON.stringify(value));
const isRecord = (value: Plain | undefined): value is { [key: string]: Plain } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The leaves at which two plain values differ, as [path, left, right]. */
const diffValues = (
  left: Plain | undefined,
  right: Plain | undefined,
  path = '',
): [string, string, string][] => {
  if (Array.isArray(left) && Array.isArray(right)) {
    const length = Math.max(left.length, right.length);
    return Array.from({ length }, (_, i) => diffValues(left[i], right[i], `${path}[${i}]`)).flat();
  }
  if (isRecord(left) && isRecord(right)) {
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    return keys.flatMap(key => diffValues(left[key], right[key], `${path}.${key}`));
  }
  const [a, b] = [show(left), show(right)];
  return a === b ? [] : [[path || '(value)', a, b]];
};

const describe = (outcome: Outcome | undefined) =>
  outcome === undefined
    ? '(no such step)'
    : `${outcome.ok ? 'ok' : 'error'} ${show(outcome.value)}`;

export const compareOutcomes = (
  left: readonly Outcome[],
  right: readonly Outcome[],
): { steps: number; differences: Difference[] } => {
  const steps = [...new Set([...left.map(o => o.step), ...right.map(o => o.step)])];
  const byStep = (outcomes: readonly Outcome[], step: string) =>
    outcomes.find(o => o.step === step);
  const differences: Difference[] = [];
  for (const step of steps) {
    const a = byStep(left, step);
    const b = byStep(right, step);
    if (a !== undefined && b !== undefined && a.ok === b.ok) {
      const leaves = diffValues(a.value, b.value);
      if (leaves.length > 0)
        differences.push({ step, lines: leaves.map(([path, x, y]) => `${path}: ${x} | ${y}`) });
    } else if (describe(a) !== describe(b)) {
      differences.push({ step, lines: [`${describe(a)} | ${describe(b)}`] });
    }
  }
  return { steps: steps.length, differences };
};
harden(compareOutcomes);
