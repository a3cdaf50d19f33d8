/**
 * Work a ping no longer repeats (issue 46, round 10; docs/benchmark.md, "Less
 * work a ping"): one `E()` proxy per reference for the guest powers' calls
 * every ping makes (src/daemon/far-ref.ts), instead of one made and hardened
 * for each call.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { farOf } from '../src/daemon/far-ref.js';

describe('farOf', () => {
  test('gives one proxy per reference, whose calls reach that reference', async () => {
    const calls: string[] = [];
    const powers = Far('GuestPowers', {
      dismiss: (number: bigint) => {
        calls.push(`dismiss ${number}`);
        return `dismissed ${number}`;
      },
    });
    const other = Far('GuestPowers', { dismiss: () => 'other' });
    expect(farOf(powers)).toBe(farOf(powers));
    expect(farOf(other)).not.toBe(farOf(powers));
    expect(await farOf(powers).dismiss(1n)).toBe('dismissed 1');
    expect(await farOf(powers).dismiss(2n)).toBe('dismissed 2');
    expect(await farOf(other).dismiss()).toBe('other');
    expect(calls).toEqual(['dismiss 1', 'dismiss 2']);
  });

  test('takes what E() takes: a value that is no object gets a proxy, and calls on it reject', async () => {
    const missing = farOf(undefined as unknown as { dismiss(): void });
    await expect(missing.dismiss()).rejects.toThrow();
  });
});
