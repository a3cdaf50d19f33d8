// SES lockdown installs `harden` as a global; the daemon's worker applies it
// before any caplet module is imported.
declare global {
  function harden<T>(value: T): T;
}
export {};
