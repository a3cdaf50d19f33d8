// The daemon double against what the real daemons answered to the conformance
// sequence (conformance/recorded/, from `npm run conformance -- --endo …`):
// only the differences listed in docs/daemon-api.md ("Known differences") may show.
import { describe, expect, it } from 'vitest';
import { checkDouble } from '../conformance/check-double.js';

describe('the daemon double against the real daemons (npm run conformance)', () => {
  for (const generation of ['f0a46042a', 'newest'] as const) {
    it(`answers the sequence as endo's ${generation} daemon did`, async () => {
      const check = await checkDouble(generation);
      expect(check.steps).toBeGreaterThan(50);
      expect(check.unexpected).toEqual([]);
      expect(check.gone).toEqual([]);
    });
  }
});
