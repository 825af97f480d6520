import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { solanaDevnetGenesisHash } from '@agentwallet/solana-devnet'
import { createSolanaRpc, generateKeyPairSigner } from '@solana/kit'
import { afterAll, expect, it } from 'vitest'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { solanaDevnetCommand } from '../src/cli/solanaDevnetCommand.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-solana-devnet-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('`agentwallet devnet --solana` serves the Solana devnet from <data-dir>/solana-devnet and prints its URL', async () => {
  const { values } = parseCli(['devnet', '--solana', '--data-dir', dataDir, '--port', '0'])
  expect(values.solana).toBe(true)
  const lines: string[] = []
  const running = await solanaDevnetCommand(loadConfig(values, {}), (line) => lines.push(line))
  try {
    const url = /on (http:\/\/\S+),/.exec(lines[0] ?? '')?.[1] ?? ''
    const rpc = createSolanaRpc(url)
    expect(await rpc.getHealth().send()).toBe('ok')
    expect(await rpc.getGenesisHash().send()).toBe(solanaDevnetGenesisHash)
    const wallet = await generateKeyPairSigner()
    await rpc.requestAirdrop(wallet.address, (10n ** 9n) as never).send()
    expect((await rpc.getBalance(wallet.address).send()).value).toBe(10n ** 9n)
  } finally {
    await running.close()
  }
})
