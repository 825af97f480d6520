/**
 * What predicting a transaction's effects costs (#25): p50/p90 of `predictEffects` for a plain native
 * transfer (one getCode), a decoded ERC-20 transfer (no RPC: an address-book token), and a contract
 * call it must simulate (debug_traceCall + the token's facts), on the in-process devnet and over
 * HTTP to the same devnet. Run: node --import tsx bench/effects.bench.ts
 * Not a test: it prints numbers and asserts nothing.
 */
import { readFileSync } from 'node:fs'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ChainHandle } from '../packages/core/src/chain/types.js'
import { predictEffects } from '../packages/core/src/effects/predictEffects.js'
import { createDevnet } from '../packages/devnet/src/index.js'

const iterations = Number(process.env.ITERATIONS ?? 300)
const devnet = await createDevnet()
const account = privateKeyToAccount(devnet.accounts[3]!.privateKey)
const local = createPublicClient({ chain: devnet.chain, transport: custom(devnet.provider) }) as PublicClient
const wallet = createWalletClient({ account, chain: devnet.chain, transport: custom(devnet.provider) })
const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
await devnet.mintToken('USDC', account.address, 10n ** 12n)

const artifacts = JSON.parse(
  readFileSync(new URL('../packages/devnet/artifacts/devnet-contracts.json', import.meta.url), 'utf8'),
) as { contracts: Record<string, { abi: Abi; bytecode: Hex }> }
const drainerArtifact = artifacts.contracts.AllowanceDrainer!
const deployHash = await wallet.deployContract({
  ...drainerArtifact,
  args: [usdc, devnet.accounts[4]!.address],
})
const drainer = getAddress((await local.waitForTransactionReceipt({ hash: deployHash })).contractAddress!)
await local.waitForTransactionReceipt({
  hash: await wallet.writeContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'approve',
    args: [drainer, 10n ** 6n],
  }),
})

const calls: Record<string, { to: Address; value: bigint; data?: Hex }> = {
  'plain transfer (getCode)': { to: devnet.accounts[5]!.address, value: parseEther('0.1') },
  'ERC-20 transfer (decoded)': {
    to: usdc,
    value: 0n,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [devnet.accounts[5]!.address, 5n],
    }),
  },
  'contract call (simulated)': {
    to: drainer,
    value: 0n,
    data: encodeFunctionData({ abi: drainerArtifact.abi, functionName: 'claim' }),
  },
}

const server = await devnet.serve()
const remote = createPublicClient({ chain: devnet.chain, transport: http(server.url, { retryCount: 0 }) })
for (const [where, client] of [
  ['in-process', local],
  ['HTTP', remote as PublicClient],
] as const) {
  const chain: ChainHandle = {
    name: 'devnet',
    chainId: devnet.chain.id,
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    testnet: true,
    client,
    contracts: devnet.addressBook,
  }
  for (const [name, call] of Object.entries(calls)) {
    for (let i = 0; i < 20; i++) await predictEffects(chain, { from: account.address }, call) // warm-up
    const samples: number[] = []
    let source = ''
    for (let i = 0; i < iterations; i++) {
      const started = performance.now()
      const effects = await predictEffects(chain, { from: account.address }, call)
      samples.push(performance.now() - started)
      source = effects.status === 'known' ? effects.source : effects.status
    }
    samples.sort((a, b) => a - b)
    const at = (q: number) => samples[Math.floor(q * (samples.length - 1))]!.toFixed(3)
    console.log(
      `${where.padEnd(10)} ${name.padEnd(28)} ${source.padEnd(9)} p50 ${at(0.5)} ms  p90 ${at(0.9)} ms`,
    )
  }
}
await server.close()
await devnet.close()
