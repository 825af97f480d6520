/**
 * Send throughput: AgentWallet (policy + persistence + vault signing + nonce manager) against raw
 * viem (local account, no policy, no storage) on the same in-process devnet, in one run.
 * Run: node --import tsx bench/send.bench.ts [count]
 */
import { createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const count = Number(process.argv[2] ?? 500)

const devnet = await createDevnet()
const aw = await createAgentWallet({
  chains: { devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook } },
  storage: memoryStorage(),
  defaultTenantRules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
  trackerIntervalMs: 1000,
})
const recipient = devnet.accounts[9]!.address

/** The baseline: sign and broadcast one after another, as any sender of one account must. */
async function rawViem(): Promise<number> {
  const account = privateKeyToAccount(devnet.accounts[1]!.privateKey)
  const client = createWalletClient({
    account,
    chain: devnet.chain,
    transport: custom(devnet.provider, { retryCount: 0 }),
  })
  const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
  const started = performance.now()
  for (let nonce = 0; nonce < count; nonce++) {
    await client.sendTransaction({ to: recipient, value: 1n, nonce, gas: 21_000n, ...fees })
  }
  return performance.now() - started
}

async function agentWallet(wallets: number): Promise<number> {
  const created = await Promise.all(
    Array.from(
      { length: wallets },
      async (_, i) => (await aw.createWallet({ agentName: `bench-${i}` })).wallet,
    ),
  )
  for (const wallet of created) await devnet.faucet(wallet.address, parseEther('10'))
  const started = performance.now()
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      aw.send({ wallet: created[i % wallets]!.address, to: recipient, value: '0.000001' }),
    ),
  )
  return performance.now() - started
}

const rows: Array<[string, number]> = []
rows.push(['raw viem, 1 account, sequential', await rawViem()])
rows.push(['AgentWallet, 1 wallet', await agentWallet(1)])
rows.push(['AgentWallet, 10 wallets', await agentWallet(10)])

const baseline = count / (rows[0]![1] / 1000)
console.log(`\n${count} sends each, devnet in-process, ${new Date().toISOString()}`)
console.log('| run | ms | tx/s | vs raw viem |\n|---|---|---|---|')
for (const [name, ms] of rows) {
  const rate = count / (ms / 1000)
  console.log(`| ${name} | ${ms.toFixed(0)} | ${rate.toFixed(0)} | ${(rate / baseline).toFixed(2)}× |`)
}
await aw.close()
await devnet.close()
