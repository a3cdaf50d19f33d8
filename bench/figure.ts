/** The shape every figure module returns: rows for the table, data for the JSON. */

export type Verdict = 'pass' | 'MISSED' | 'info';

export interface FigureRow {
  /** What is measured, e.g. "ping answered (lal)". */
  label: string;
  measured: string;
  /** The target or reference it is judged against ('' when none). */
  target: string;
  verdict: Verdict;
}

export interface FigureResult {
  id: string;
  title: string;
  rows: FigureRow[];
  /** Raw numbers for bench-results/latest.json. */
  data: Record<string, unknown>;
  /** How the figure was measured, or what dominates; printed under the table. */
  notes: string[];
}

export const judged = (ok: boolean): Verdict => (ok ? 'pass' : 'MISSED');
harden(judged);
