// The anthropic provider through its real SDK against our double of the service.
import { describeWireSuite } from './providers-wire-suite.js';

describeWireSuite('anthropic');
