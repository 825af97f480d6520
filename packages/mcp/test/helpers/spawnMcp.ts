import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const cli = fileURLToPath(new URL('../../../koa/src/cli/main.ts', import.meta.url))

export type SpawnedMcp = { client: Client; stderr: () => string; close(): Promise<void> }

/**
 * `agentwallet mcp` as a child process over real stdio (tsx runs the sources; the repo's tsconfig
 * paths resolve the workspace packages), with an SDK client connected to it.
 */
export async function spawnMcp(env: Record<string, string>): Promise<SpawnedMcp> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('AGENTWALLET_')),
  )
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', cli, 'mcp'],
    cwd: root,
    env: { ...inherited, ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client({ name: 'stdio-test-agent', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => stderr, close: () => client.close() }
}
