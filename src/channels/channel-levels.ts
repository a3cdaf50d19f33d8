/**
 * How readily the agent speaks in a channel when no one addresses it
 * (docs/behaviour.md 10.3): active, normal, quiet, or observer (only when
 * mentioned, and then without asking the routing model). People set it in
 * plain words addressed to the agent; the HOST sets it with the controller.
 */
const LEVELS = ['active', 'normal', 'quiet', 'observer'] as const;
export type Level = (typeof LEVELS)[number];

export const isLevel = (value: unknown): value is Level =>
  typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
harden(isLevel);

/** What each level means, for help() and the routing model. */
export const LEVEL_MEANING: Readonly<Record<Level, string>> = harden({
  active: 'speaks up whenever it has something useful to add',
  normal: 'speaks when a message is plainly for it or it can clearly help',
  quiet: 'speaks only when a message clearly needs it',
  observer: 'only when mentioned',
});
harden(LEVEL_MEANING);

/** The same, as the agent says it in its channel when people set the level ("Understood: here I now …"). */
export const LEVEL_SAID: Readonly<Record<Level, string>> = harden({
  active: 'speak up whenever I have something useful to add',
  normal: 'speak when a message is plainly for me or I can clearly help',
  quiet: 'speak only when a message clearly needs me',
  observer: 'speak only when mentioned',
});
harden(LEVEL_SAID);

// Most specific first: "only when mentioned" is not "more active". Each is said as a request
// ("be quieter", "be an observer"): a question that merely names a level ("what does an
// observer do?", "is it quieter now?") is answered, not taken for one.
const ASKED: readonly (readonly [Level, RegExp])[] = harden([
  [
    'observer',
    /\bonly (?:speak |talk |answer |respond |reply )?(?:when|if) (?:you(?:'re| are) )?(?:mentioned|addressed|asked|pinged)\b|\b(?:be|stay|act as) an? observer\b|\bjust (?:watch|listen)\b|\bstay silent\b/i,
  ],
  ['quiet', /\b(?:be|stay|keep) quiet(?:er)?\b|\bspeak less\b|\bbe less (?:chatty|talkative)\b/i],
  ['active', /\bbe more active\b|\bbe active\b|\bspeak (?:up )?more\b|\bjump in more\b/i],
  ['normal', /\bback to normal\b|\bbe normal\b|\bnormal level\b/i],
]);

/** The level a message addressed to the agent asks for, if it asks for one. */
export const levelAskedFor = (text: string): Level | undefined =>
  ASKED.find(([, words]) => words.test(text))?.[0];
harden(levelAskedFor);
