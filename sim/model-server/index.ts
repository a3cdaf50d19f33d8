/** The model service doubles' public API. */
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
