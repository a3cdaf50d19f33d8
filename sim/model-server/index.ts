/** The model service doubles' public API. */
// Re-exports: each value is hardened in the module that defines it; types have nothing at run time.
/* eslint-disable @endo/harden-exports */
export { startModelServer } from './start-model-server.js';
export { alwaysFail, failFirst, scriptedReplies } from './scripted-replies.js';
export type {
  ModelProtocol,
  ModelServer,
  ModelServerOptions,
  NormalizedRequest,
  ReplyScript,
  ScriptedReply,
  ScriptedToolCall,
} from './types.js';
/* eslint-enable @endo/harden-exports */
