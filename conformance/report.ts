/** Prints a comparison: every difference, known ones marked as such. */
import type { Difference } from './compare.js';

export const printComparison = (
  print: (line: string) => void,
  title: string,
  parts: { unexpected: Difference[]; known: Difference[]; gone: string[] },
) => {
  const { unexpected, known, gone } = parts;
  print(`${title}: ${unexpected.length} differences, ${known.length} known`);
  if (unexpected.length + known.length > 0) print('  each line: <path>: <double> | <endo>');
  for (const [label, list] of [
    ['≠', unexpected],
    ['≠ (known)', known],
  ] as const) {
    for (const { step, lines } of list) {
      print(`${label} ${step}`);
      for (const line of lines) print(`    ${line}`);
    }
  }
  for (const step of gone) print(`known difference no longer seen: ${step}`);
};
harden(printComparison);
