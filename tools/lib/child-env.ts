/**
 * The environment of a process a tool starts: built from an allow list,
 * never from the worker's own environment, which holds the agent's secrets
 * and whatever else the daemon was started with (AWS_SECRET_ACCESS_KEY,
 * SSH_AUTH_SOCK, ...). Every tool that starts a child process uses this.
 */

/** The only variables a child gets. */
const CHILD_ENV_NAMES: readonly string[] = Object.freeze(['PATH', 'HOME', 'LANG', 'TERM', 'PWD']);
harden(CHILD_ENV_NAMES);

const FALLBACK_LANG = 'C.UTF-8';
/** A locale name, nothing that could carry more than that. */
const LOCALE = /^[A-Za-z0-9_.@-]{1,64}$/;

export const makeChildEnv = (
  source: Readonly<Record<string, string | undefined>>,
  where: { path: string; home: string; cwd: string },
): Record<string, string> => {
  const lang = source.LANG;
  return {
    PATH: where.path,
    HOME: where.home,
    LANG: lang !== undefined && LOCALE.test(lang) ? lang : FALLBACK_LANG,
    // Output goes to a pipe the model reads, not a terminal.
    TERM: 'dumb',
    PWD: where.cwd,
  };
};
harden(makeChildEnv);
