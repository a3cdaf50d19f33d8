/** The machine a run was made on, for the results file and docs/benchmark.md. */
import { arch, cpus, platform, release, totalmem } from 'node:os';

export interface MachineInfo {
  node: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  date: string;
  gcExposed: boolean;
}

export const machineInfo = (): MachineInfo => {
  const processors = cpus();
  return {
    node: process.version,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()} ${arch()}`,
    date: new Date().toISOString(),
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
};
harden(machineInfo);
