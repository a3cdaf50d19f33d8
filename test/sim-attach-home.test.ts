/**
 * `/attach <tool> <folder>` with `~`, as a newcomer types it (issue 45): an
 * unquoted `~` alone or before `/` is the home folder, as in a shell (and as
 * in `.env`, sim/chat/dotenv.ts), and the answer names the folder it became;
 * a quoted one is kept, as a shell keeps it. Both forms of /attach read their
 * words so (sim/chat/shell-words.ts): quotes anywhere in a word, a backslash
 * before a space, and `~` in `/attach mcp`'s command and arguments too.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('/attach with ~', () => {
  it('roots the tool at the home folder, or under it, and says which folder', async () => {
    const home = makeTempFolder('home');
    mkdirSync(join(home, 'notes'));
    const run = await runSim(['--demo', '--fresh'], { HOME: home }, input => {
      input.write('/attach listDir ~\n/attach readFile ~/notes\n/attach editFile "~"\n');
      input.end();
    });
    expect(run.stdout).toContain(`mailed @list-dir to lal (rooted at ${home}, from ~)`);
    expect(run.stdout).toContain(
      `mailed @read-file to lal (rooted at ${home}/notes, from ~/notes)`,
    );
    // Quoted, as in a shell: no home folder, the quotes taken off.
    expect(run.stdout).toMatch(
      /\/~ is not a folder \(quotes stop ~ from being the home folder, as in a shell\)/,
    );
  });

  it("reads quotes and escapes as a shell does, in a folder and in an MCP server's words", async () => {
    const home = makeTempFolder('home');
    mkdirSync(join(home, 'my dir'));
    const run = await runSim(['--demo', '--fresh'], { HOME: home }, input => {
      input.write(
        [
          '/attach readFile ~/"my dir"',
          `/attach listDir ${home}/my\\ dir`,
          '/attach editFile my dir',
          '/attach mcp bad ~/nosuchcmd-for-this-test',
          '',
        ].join('\n'),
      );
      input.end();
    });
    expect(run.stdout).toContain(
      `mailed @read-file to lal (rooted at ${home}/my dir, from ~/"my dir")`,
    );
    expect(run.stdout).toContain(`mailed @list-dir to lal (rooted at ${home}/my dir)`);
    expect(run.stdout).toContain(
      'editFile takes one folder; quote a name with spaces, as in a shell: /attach editFile "my folder"',
    );
    // The server's command is the file in the home folder, not a "~" the server cannot find.
    expect(run.stdout).toMatch(
      new RegExp(`^Did not attach mcp-bad: [^\\n]*${home}/nosuchcmd-for-this-test`, 'm'),
    );
  });
});
