/** Small statistics over samples: median and nearest-rank percentiles. */

export const percentile = (samples: readonly number[], p: number): number => {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
};
harden(percentile);

export const median = (samples: readonly number[]): number => percentile(samples, 50);
harden(median);

/** A duration in ms for the table: two decimals under 10 ms, one above. */
export const ms = (value: number): string =>
  Number.isNaN(value) ? 'n/a' : `${value.toFixed(value < 10 ? 2 : 1)} ms`;
harden(ms);

/** A byte count for the table. */
export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
harden(kb);

export const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
harden(mb);
