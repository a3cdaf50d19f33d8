/**
 * Cutting without leaving part of a secret (docs/behaviour.md 9.5): a cut
 * backs off to the start of a token-shaped run it would split; a run too
 * long to be a secret, or a cut between words, falls where it is.
 */
import { describe, expect, test } from 'vitest';
import { cutIndex, cutWhole } from '../src/log/cut-text.js';

describe('cutting a text', () => {
  test('a token the cut would split is left out whole', () => {
    const text = 'the key is sk-0123456789abcdef, keep it';
    expect(cutIndex(text, 20)).toBe('the key is '.length);
    expect(cutWhole(text, 20)).toBe('the key is …');
  });

  test('a cut between words, or a text within the bound, is where it falls', () => {
    expect(cutIndex('one two three', 4)).toBe(4);
    expect(cutWhole('one two three', 40)).toBe('one two three');
    // The run ends right at the cut: nothing is split.
    expect(cutIndex('abc def', 3)).toBe(3);
  });

  test('a run longer than any secret, all told, is data: cut where the bound falls', () => {
    const blob = `blob ${'A'.repeat(1_000)}`;
    expect(cutIndex(blob, 600)).toBe(600);
    // A run of 256 characters is left out whole; one of 257 is cut where the bound falls.
    expect(cutIndex(`x ${'B'.repeat(256)} y`, 100)).toBe(2);
    expect(cutIndex(`x ${'B'.repeat(257)} y`, 100)).toBe(100);
  });
});
