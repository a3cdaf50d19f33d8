/**
 * How readily the agent speaks in a channel when no one addresses it
 * (docs/behaviour.md 11.3): active, normal, quiet, or observer (only when
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
const LEVEL_SAID: Readonly<Record<Level, string>> = harden({
  active: 'speak up whenever I have something useful to add',
  normal: 'speak when a message is plainly for me or I can clearly help',
  quiet: 'speak only when a message clearly needs me',
  observer: 'speak only when mentioned',
});
harden(LEVEL_SAID);

/** The one line that answers a level asked for: the level now, or why it was left as it was. */
export const levelAnswer = (asked: Level | 'unclear', now: Level): string =>
  asked === 'unclear'
    ? `I left how readily I speak here as it was (${now}: ${LEVEL_MEANING[now]}): I could not tell whether you want me quieter or more active. Say "be quieter", "be more active", "only when mentioned" or "back to normal".`
    : `Understood: here I now ${LEVEL_SAID[now]}.`;
harden(levelAnswer);

// Each is said as a request ("be quieter", "be an observer"): a question that merely names a
// level ("what does an observer do?", "is it quieter now?") is answered, not taken for one. "Do"
// asks only before whom it asks about ("do you speak up?"); before a verb it stresses a request.
const QUESTION =
  /^(?:@\S+\s+)*(?:what|why|how|when|where|who|which|is|are|was|were|does|did|do(?=\s+(?:you|we|they|i|it|he|she|people|others|y'all|u)\b))\b/i;
const OBSERVER =
  /\bonly (?:speak |talk |answer |respond |reply |post |chime in )?(?:when|if) (?:you(?:'re| are) )?(?:mentioned|addressed|asked|pinged|tagged|called)\b|\b(?:be|stay|act as|become) an observer\b|\bjust (?:watch|listen|read)\b|\b(?:be|stay|keep) silent\b|\bstop (?:talking|speaking|chiming in|jumping in)\b/i;
const NORMAL =
  /\bback to normal\b|\bbe normal\b|\bnormal level\b|\bback to (?:your )?(?:usual|default)\b/i;
const VERB = '(?:speak|talk|chime in|jump in|post|reply|respond|answer|comment|interject)';
// Fewer words: an absolute "be quiet" (never louder than now), or a step down.
const QUIET = /\b(?:be|stay|keep) quiet\b(?!er)/i;
const QUIETER = new RegExp(
  [
    '\\b(?:be|stay|keep|get) quieter\\b',
    '\\b(?:quiet|calm|pipe|tone it|slow it|keep it) down\\b',
    '\\bslow(?:er)? down\\b',
    '\\bback off\\b',
    '\\bless (?:chatty|talkative|active|often|frequently|eager|much)\\b',
    '\\bfewer (?:messages|replies|answers|posts|comments|words)\\b',
    '\\bnot so (?:much|often|chatty|talkative)\\b',
    `\\b${VERB}(?: up)?(?: (?:a bit|a little|much|far|way))? (?:more |a bit |a little )?(?:less|slow(?:er|ly)|quiet(?:er|ly)|rarely|seldom|softer|softly)\\b`,
  ].join('|'),
  'i',
);
// More words: an absolute "be active", or a step up.
const ACTIVE = /\b(?:be|stay) active\b/i;
const LOUDER = new RegExp(
  [
    '\\b(?:be|get) more (?:active|chatty|talkative|involved|engaged)\\b',
    '\\bless quiet\\b',
    `\\b${VERB} up\\b(?! (?:more |a bit |a little )?(?:slow|quiet|soft|rare|seldom|less))`,
    `\\b${VERB}(?: up)? more(?: often| frequently)?\\b(?! (?:slow|quiet|soft|rare|seldom|less|clear|careful|brief|concise|about|on|of|like|than|politely|kindly|simply|plainly))`,
    '\\bmore (?:often|frequently)\\b',
  ].join('|'),
  'i',
);
// About the level, but in words that say neither way.
const ABOUT_LEVEL =
  /\b(?:change|adjust|set|switch) (?:your |the )?(?:level|mode)\b|\bhow (?:often|much|readily) you (?:speak|talk|post|chime in|jump in|reply|answer)\b/i;

/** Quietest first: a step down is a step towards observer. */
const SCALE: readonly Level[] = harden(['observer', 'quiet', 'normal', 'active']);
const step = (level: Level, by: -1 | 1): Level =>
  SCALE[Math.min(SCALE.length - 1, Math.max(0, SCALE.indexOf(level) + by))]!;
const quieterOf = (a: Level, b: Level): Level => (SCALE.indexOf(a) <= SCALE.indexOf(b) ? a : b);

/**
 * The level a message addressed to the agent asks for, from the channel's `current` one: never
 * the other way than its words say (quieter, slower, less is never more active); `'unclear'`
 * when it asks about the level in words that cannot be told apart (both ways at once, or
 * neither); undefined when it asks for none.
 */
export const levelAskedFor = (text: string, current: Level): Level | 'unclear' | undefined => {
  if (QUESTION.test(text.trim())) return undefined;
  // The most specific first: "only when mentioned" is not "more active".
  if (OBSERVER.test(text)) return 'observer';
  const down = QUIET.test(text) || QUIETER.test(text);
  const up = ACTIVE.test(text) || LOUDER.test(text);
  if (down && up) return 'unclear';
  if (down) return QUIETER.test(text) ? step(current, -1) : quieterOf(current, 'quiet');
  if (up) return ACTIVE.test(text) ? 'active' : step(current, 1);
  if (NORMAL.test(text)) return 'normal';
  return ABOUT_LEVEL.test(text) ? 'unclear' : undefined;
};
harden(levelAskedFor);
