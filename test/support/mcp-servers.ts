/** Where the MCP servers from npm that the tests start are (devDependencies, run offline). */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const everythingServer =
  require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemServer =
  require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
