import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { cliEntry } from '../../../../test/helpers/cliBundle.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))

export type SpawnedMcp = {
  client: Client
  stderr: () => string
  /** Protocol errors the client saw, e.g. a stdout line that is not JSON-RPC. */
  errors: Error[]
  close(): Promise<void>
}

/**
 * Runs an `agentwallet` CLI command to completion and answers its stdout; a failure rejects with
 * the exit `code`, `stdout` and `stderr`. Asynchronous: a server in this process must keep answering.
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const run = promisify(execFile)(process.execPath, [cliEntry(), ...args], {
    cwd: root,
    env: { ...inheritedEnv(), ...env },
    encoding: 'utf8',
  })
  // No input: a command that would wait on stdin (`mcp` serving) sees it end at once.
  run.child.stdin?.end()
  return (await run).stdout
}

/** How a CLI command ended: its exit code (0 for success) and what it printed. */
export async function cliOutcome(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(args, env).then(
    (stdout) => ({ code: 0, stdout, stderr: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  )
}

/**
 * `agentwallet mcp` as a child process over real stdio (the CLI bundled from the sources,
 * `cliEntry`), with an SDK client connected to it.
 */
export async function spawnMcp(env: Record<string, string>): Promise<SpawnedMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliEntry(), 'mcp'],
    cwd: root,
    env: { ...inheritedEnv(), ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client({ name: 'stdio-test-agent', version: '1.0.0' })
  const errors: Error[] = []
  client.onerror = (error) => errors.push(error)
  await client.connect(transport)
  return { client, stderr: () => stderr, errors, close: () => client.close() }
}

/** This process's environment without AgentWallet settings, which each test sets itself. */
function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('AGENTWALLET_'),
    ),
  )
}
