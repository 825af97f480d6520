import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTool, freshAddress } from './helpers/mcpFixture.js'
import { cliOutcome, runCli, type SpawnedMcp, spawnMcp } from './helpers/spawnMcp.js'

let dataDir: string
let mcp: SpawnedMcp

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-mcp-'))
  // The operator's shell issues the agent key into the data dir, as the README says.
  const output = await runCli(['keys', 'create', '--name', 'bot', '--role', 'agent'], {
    AGENTWALLET_DATA_DIR: dataDir,
  })
  const agentKey = output.trim().split('\n').at(-1)!
  mcp = await spawnMcp({
    AGENTWALLET_DATA_DIR: dataDir,
    AGENTWALLET_API_KEY: agentKey,
    AGENTWALLET_APPROVAL_URL: 'http://127.0.0.1:8080',
  })
}, 120_000)
afterAll(async () => {
  await mcp?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('agentwallet mcp over stdio, in-process over a data dir (SQLite + embedded devnet)', () => {
  it('serves the tools as the agent key, with nothing but the protocol on stdout', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.length).toBeGreaterThan(0)
    expect((await callTool(mcp.client, 'list_wallets')).data).toMatchObject({ count: 0, wallets: [] })
    const created = await callTool(mcp.client, 'create_wallet', { agentName: 'cli-bot' })
    expect(created.isError).toBe(false)
    expect((await callTool(mcp.client, 'list_wallets')).data).toMatchObject({
      count: 1,
      wallets: [{ address: created.data.wallet.address, agentName: 'cli-bot' }],
    })
    const someoneElses = await callTool(mcp.client, 'get_balance', { wallet: freshAddress() })
    expect(someoneElses.data.error.code).toBe('not_found')
    expect((await callTool(mcp.client, 'check_ens_name', { name: 'fresh-name.eth' })).data).toMatchObject({
      available: true,
    })
    expect(mcp.errors).toEqual([])
    expect(mcp.stderr()).toContain('in-process backend')
  })
})

describe('agentwallet mcp refuses to start without a usable agent key', () => {
  it('explains the missing key on stderr and exits 1', async () => {
    const failure = await cliOutcome(['mcp'], { AGENTWALLET_DATA_DIR: dataDir })
    expect(failure).toMatchObject({ code: 1 })
    expect(failure.stderr).toContain('AGENTWALLET_API_KEY')
    expect(failure.stdout).toBe('')
  })
})
