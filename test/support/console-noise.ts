/**
 * Console lines the test run leaves out (vitest.config.ts's onConsoleLog):
 * Endo's marshal reports each error a remote call rejects with, and the tests
 * expect those rejections; the MCP SDK warns of each tool name outside its
 * standard, and test/mcp-fae.test.ts offers such names on purpose (the
 * bridge must carry them).
 */
const NOISE = [
  /Temporary logging of sent error|ERROR_NOTE: Sent as error|^\s*at /,
  /Tool name validation warning|^\s*- (?:Tool name|Allowed characters are)/,
  /Tool registration will proceed|Consider updating the tool name|See SEP: Specify Format for Tool Names/,
];

export const isConsoleNoise = (line: string): boolean => NOISE.some(pattern => pattern.test(line));
