/**
 * What upstream Lal's setup leaves in a daemon (endojs/endo
 * packages/lal/setup.js at 1ef30c259, which the chat's dev server runs at
 * start), done through the host's powers as that script does: a guest
 * `setup-lal` introduced to the host's powers as `host-agent`, with powers
 * `profile-for-lal`, and its manager caplet as `controller-for-lal` on
 * `@main`; its form, auto-submitted with the name `lal`, then makes a guest
 * `lal` with powers `profile-for-lal` (a second provideGuest under that
 * name, which renames it to the new guest's powers), served by a loop inside
 * the manager (no caplet of its own). The manager here only answers help(),
 * as upstream's exo does: nothing of ours may call it or pin it.
 */
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';

const UpstreamLalInterface = M.interface('Lal', {
  help: M.call().optional(M.string()).returns(M.string()),
});

export const UPSTREAM_HELP = 'Lal agent manager. Submit the configuration form to add agents.';

/** The upstream manager caplet (its make, reduced to what our setup could meet). */
export const make = () =>
  makeExo('Lal', UpstreamLalInterface, {
    help: () => UPSTREAM_HELP,
  });

interface Host {
  has(name: string): Promise<boolean>;
  provideGuest(name: string, options: object): Promise<unknown>;
  makeUnconfined(worker: string, specifier: string, options: object): Promise<unknown>;
}

export const upstreamLalSource = new URL('./upstream-lal.ts', import.meta.url).href;

/** Runs upstream setup.js's calls, then its manager's answer to the form submitted with name "lal". */
export const runUpstreamSetup = async (host: unknown): Promise<void> => {
  const far = E(host as Host);
  if (await far.has('controller-for-lal')) return;
  if (!(await far.has('setup-lal')))
    await far.provideGuest(
      'setup-lal',
      harden({ introducedNames: { '@agent': 'host-agent' }, agentName: 'profile-for-lal' }),
    );
  await far.makeUnconfined(
    '@main',
    upstreamLalSource,
    harden({ powersName: 'profile-for-lal', resultName: 'controller-for-lal' }),
  );
  // The form submitted (name "lal"): the manager makes the guest through host-agent.
  if (!(await far.has('lal')))
    await far.provideGuest('lal', harden({ agentName: 'profile-for-lal' }));
};
