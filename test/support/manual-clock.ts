// The manual clock lives in sim/ (the bench moves it too); tests import it from here.
export { makeManualClock, type ManualClock } from '../../sim/manual-clock.js';
