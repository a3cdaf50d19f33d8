// Every suite runs as the daemon's worker runs a caplet: after SES lockdown,
// with eventual send (E, HandledPromise) installed.
import '@endo/init/debug.js';
