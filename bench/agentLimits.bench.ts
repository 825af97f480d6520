// node --import tsx bench/agentLimits.bench.ts — the cost of an agent-scoped window (issue #42):
// dry runs of a wallet whose agent key holds `wallets` wallets with `sends` counted sends each,
// with and without an agent spend_limit, on memory storage and the in-process devnet.
import { createAgentWallet, memoryStorage, type Principal } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { freshAddress } from '../test/helpers/devnetAgentWallet.js'

const wallets = 10
const sends = 20
const runs = 300
const devnet = await createDevnet()
const aw = await createAgentWallet({
  chains: { devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook } },
  storage: memoryStorage(),
  defaultTenantRules: [],
})
const admin = aw.as({ tenantId: 'default', id: 'local', role: 'admin', root: true })
const { apiKey } = await admin.createApiKey({ name: 'bench', role: 'agent' })
const agent = aw.as({ tenantId: 'default', id: apiKey.id, role: 'agent' } satisfies Principal)
const held: string[] = []
for (let i = 0; i < wallets; i++) {
  const { wallet } = await agent.createWallet({ agentName: `bench-${i}` })
  await devnet.faucet(wallet.address, parseEther('10'))
  for (let j = 0; j < sends; j++)
    await agent.send({ wallet: wallet.address, to: freshAddress(), value: '0.001' })
  held.push(wallet.address)
}
const to = freshAddress()
async function measure(label: string) {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await agent.evaluatePolicy({ wallet: held[0]!, to, value: '0.001' })
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  console.log(
    `${label}: p50 ${times[runs >> 1]!.toFixed(2)} ms, p95 ${times[Math.floor(runs * 0.95)]!.toFixed(2)} ms`,
  )
}
const walletDay = { type: 'spend_limit', asset: 'native', max: '100', window: '24h' }
await admin.updatePolicyRules({ wallet: held[0]!, rules: [walletDay] })
await measure(`wallet spend_limit only (${sends} counted sends)`)
await admin.updatePolicyRules({ agent: apiKey.id, rules: [walletDay] })
await measure(`+ agent spend_limit (${wallets} wallets × ${sends} counted sends)`)
await aw.close()
await devnet.close()
