import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const cli = fileURLToPath(new URL('../../../koa/src/cli/main.ts', import.meta.url))

export type SpawnedMcp = {
  client: Client
  stderr: () => string
  /** Protocol errors the client saw, e.g. a stdout line that is not JSON-RPC. */
  errors: Error[]
  close(): Promise<void>
}

/**
 * `agentwallet mcp` as a child process over real stdio (tsx runs the sources; the repo's tsconfig
 * paths resolve the workspace packages), with an SDK client connected to it.
 */
/** Runs an `agentwallet` CLI command to completion and returns its stdout. */
export function runCli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: root,
    env: { ...inheritedEnv(), ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export async function spawnMcp(env: Record<string, string>): Promise<SpawnedMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', cli, 'mcp'],
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
