import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devnetAccounts } from '@agentwallet/devnet'
import { createPublicClient, createWalletClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { devnetCommand } from '../src/cli/devnetCommand.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-devnet-block-time-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const configOf = (argv: string[]) => loadConfig(parseCli(['devnet', ...argv]).values, {})

it('`agentwallet devnet --block-time` with a data dir mines on a timer, and restarts with its state', async () => {
  const lines: string[] = []
  // An hour between blocks: nothing is mined in this test but what it mines itself.
  const argv = ['--block-time', '3600', '--data-dir', dataDir, '--port', '0']
  const first = await devnetCommand(configOf(argv), (line) => lines.push(line))
  const url = /on (http:\/\/\S+)/.exec(lines[0] ?? '')?.[1] ?? ''
  expect(lines[0]).toContain('a block every 3600 s')
  const publicClient = createPublicClient({ transport: http(url, { retryCount: 0 }) })
  const account = privateKeyToAccount(devnetAccounts[1]!.privateKey)
  const head = await publicClient.getBlockNumber({ cacheTime: 0 })
  const hash = await createWalletClient({ account, transport: http(url, { retryCount: 0 }) }).sendTransaction(
    {
      chain: null,
      to: devnetAccounts[2]!.address,
      value: 1n,
    },
  )
  expect(await publicClient.getBlockNumber({ cacheTime: 0 })).toBe(head)
  await publicClient.request({ method: 'evm_mine' } as never)
  const mined = await publicClient.getTransactionReceipt({ hash })
  expect(mined.blockNumber).toBe(head + 1n)
  await first.close()

  const second = await devnetCommand(configOf(argv), (line) => lines.push(line))
  try {
    const again = createPublicClient({
      transport: http(/on (http:\/\/\S+)/.exec(lines[2] ?? '')?.[1], { retryCount: 0 }),
    })
    expect((await again.getTransactionReceipt({ hash })).blockHash).toBe(mined.blockHash)
  } finally {
    await second.close()
  }
})

it('refuses a block time that is no positive number of seconds', () => {
  for (const bad of ['0', '-1', 'soon']) expect(() => configOf(['--block-time', bad])).toThrow(CliError)
  expect(configOf(['--block-time', '0.5']).blockTime).toBe(0.5)
})
