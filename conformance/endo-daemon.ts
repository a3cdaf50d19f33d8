/**
 * A real Endo daemon from a built endo checkout, with its state (XDG folders)
 * in a temporary folder that `stop` removes: nothing touches the user's daemon.
 */
import { Fail, q } from '@endo/errors';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EndoDaemon {
  /** Runs the CLI; resolves with its output, rejects when it exits non-zero. */
  endo(args: string[]): Promise<string>;
  /** Stops the daemon and removes its state folder. */
  stop(): Promise<void>;
}

const endoCliOf = (checkout: string): string => {
  const cli = join(checkout, 'packages', 'cli', 'bin', 'endo.cjs');
  existsSync(cli) || Fail`No endo CLI at ${q(cli)}: give the path of a built endo checkout`;
  return cli;
};

/** A loopback port nobody listens on now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

export const startEndoDaemon = async (checkout: string): Promise<EndoDaemon> => {
  const cli = endoCliOf(checkout);
  // Short: the daemon's socket path must fit in 108 bytes.
  const root = mkdtempSync(join(tmpdir(), 'endo-conf-'));
  const env = {
    ...process.env,
    XDG_STATE_HOME: join(root, 'state'),
    XDG_RUNTIME_DIR: join(root, 'run'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_CACHE_HOME: join(root, 'cache'),
    // The newest daemon's gateway listens on 127.0.0.1:8920 unless told otherwise: keep clear of a daemon already there.
    ENDO_ADDR: `127.0.0.1:${await freePort()}`,
  };
  const endo = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [cli, ...args], { env, stdio: 'pipe' });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', code =>
        code === 0
          ? resolve(out)
          : reject(Error(`endo ${args.join(' ')} exited ${code}: ${err.trim() || out.trim()}`)),
      );
    });
  const stop = async () => {
    try {
      await endo(['stop']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  try {
    await endo(['start']);
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { endo, stop };
};
harden(startEndoDaemon);
