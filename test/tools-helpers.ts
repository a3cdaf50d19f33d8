// Shared by the tools-*.test.ts suites: making a tool caplet the way the
// daemon's worker does, and checking a tool schema's shape.
import { expect } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import type { ToolSchema } from '../providers/types.js';

type ToolModule = {
  make: (powers: unknown, context: unknown, options: { env: Record<string, string> }) => unknown;
};

/** A stand-in for the daemon's Context: the tools never call it. */
const dummyContext = harden({});

export function makeTool(module: ToolModule, env: Record<string, string> = {}): FaeTool {
  return module.make(undefined, dummyContext, harden({ env })) as FaeTool;
}

export function makeTempDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `lal-fae-${label}-`));
}

/** The checks every offered tool schema must pass. */
export function expectValidToolSchema(schema: ToolSchema, expectedName: string): void {
  expect(Object.isFrozen(schema)).toBe(true);
  expect(schema.type).toBe('function');
  expect(schema.function.name).toBe(expectedName);
  expect(schema.function.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
  expect(typeof schema.function.description).toBe('string');
  expect(schema.function.description.length).toBeGreaterThan(10);
  const parameters = schema.function.parameters;
  expect(parameters.type).toBe('object');
  const properties = parameters.properties ?? {};
  for (const required of parameters.required ?? []) {
    expect(Object.keys(properties)).toContain(required);
  }
  for (const [name, property] of Object.entries(properties)) {
    const hasType = property.type !== undefined || property.anyOf !== undefined;
    expect(hasType, `property ${name} declares a type`).toBe(true);
    expect(typeof property.description, `property ${name} is described`).toBe('string');
  }
}

/**
 * Every file and symlink under `dir` (recursively, not following links) with
 * its content or link target, for proving that nothing outside changed.
 */
export function snapshotTree(dir: string, skip: readonly string[] = []): Record<string, string> {
  const snapshot: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      if (skip.includes(full)) continue;
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) snapshot[full] = `-> ${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        snapshot[full] = 'dir';
        walk(full);
      } else snapshot[full] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return snapshot;
}

/** Processes whose command line holds `marker`, and are alive, not zombies (a killed child may linger unreaped in a container). */
export function runningWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc').filter(entry => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}
