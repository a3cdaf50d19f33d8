/**
 * The environment a command run by `runCommand` gets: the worker's own,
 * without the agent's secrets. Every LAL_* variable goes (LAL_AUTH_TOKEN and
 * its siblings configure the agent, not commands), and so does anything
 * named like a credential.
 */

const credentialName = /(^|_)(TOKEN|AUTH_TOKEN|API_KEY|APIKEY|SECRET|PASSWORD|PASSWD)$/i;

export function isWithheldVariable(name: string): boolean {
  return name.startsWith('LAL_') || credentialName.test(name);
}

export function makeChildEnv(
  source: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && !isWithheldVariable(name)) childEnv[name] = value;
  }
  childEnv.PWD = cwd;
  return childEnv;
}
