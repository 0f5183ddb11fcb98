/**
 * The README's SDK program ("Pointing the SDKs at it") runs as printed: written to the file it
 * names and run with the command printed beside it, against a started example server, with both
 * SDKs from the repository's `node_modules` standing in for the printed `npm install`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExampleServer } from '../../examples/server/src';
import { extractCodeBlocks } from './extract-code-blocks';

const root = join(__dirname, '../..');
const README = readFileSync(join(root, 'README.md'), 'utf8');
const PRINTED_BASE = 'http://127.0.0.1:8080';

/** The program's file name, its code, and the shell lines printed after it. */
function printedProgram(): { file: string; code: string; commands: string[] } {
  const program = extractCodeBlocks('README.md', README).find(block => block.code.includes('process.env.SIGNALBOX_API_KEY') && block.code.includes('new Anthropic('));
  if (!program) throw new Error('README.md has no SDK program');
  const file = /A whole program, `([\w.-]+)`/.exec(README)?.[1];
  const after = README.slice(README.indexOf(program.code) + program.code.length);
  const shell = /```sh\n([\s\S]*?)```/.exec(after)?.[1];
  if (!file || !shell) throw new Error('README.md names no file or command for its SDK program');
  return { file, code: program.code, commands: shell.trim().split('\n') };
}

/** Runs `command` in `directory` and returns how it ended. */
function run(command: string[], directory: string, environment: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command[0]!, command.slice(1), { cwd: directory, env: environment });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  child.stderr.on('data', chunk => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', status => resolve({ status, stdout, stderr }));
  });
}

describe('the README\'s SDK program', () => {
  it('runs as printed against the example server and prints both answers', async () => {
    const { file, code, commands } = printedProgram();
    expect(commands).toEqual(['npm install openai @anthropic-ai/sdk', `node ${file}`]);
    expect(code.split(PRINTED_BASE).length).toBeGreaterThan(2);

    const demoKey = `sbx-${'r'.repeat(40)}`;
    // Usage records committed on the next turn, so both are there once the program has its answers.
    const server = await startExampleServer({ port: 0, storage: { kind: 'memory' }, demoKey, environment: {}, usageCommitDelayMs: 0 });
    const directory = mkdtempSync(join(tmpdir(), 'signalbox-readme-program-'));
    try {
      writeFileSync(join(directory, file), code.replaceAll(PRINTED_BASE, server.url));
      symlinkSync(join(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
      const [program, ...args] = commands[1]!.split(' ');
      const result = await run([program === 'node' ? process.execPath : program!, ...args], directory, {
        PATH: process.env.PATH ?? '',
        SIGNALBOX_API_KEY: demoKey,
      });
      expect({ status: result.status, stderr: result.stderr.replace(/^.*(ExperimentalWarning|--trace-warnings).*\n/gm, '') }).toEqual({ status: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Responses: \S.*\nMessages: \S.*\n$/);
      expect(server.recentUsage().map(record => [record.protocol, record.status])).toEqual([
        ['openai-responses', 200],
        ['anthropic-messages', 200],
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await server.close(0);
    }
  });
});
