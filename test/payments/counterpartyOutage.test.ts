import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { type Address, type EIP1193RequestFn, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { publicClientOf, withStatus } from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

let devnet: Devnet
let aw: AgentWallet
let resources: X402ResourceServer
let usdc: Address
let agent: { address: Address; agentId: string }
/** The registry whose reads the node stops answering (an outage of the RPC for those calls). */
let unreachable: Address | undefined

beforeAll(async () => {
  devnet = await createDevnet()
  const request = (async (args: { method: string; params?: unknown }) => {
    const [call] = (args.params ?? []) as [{ to?: string }?]
    if (args.method === 'eth_call' && unreachable && call?.to?.toLowerCase() === unreachable.toLowerCase())
      throw new Error('the node did not answer')
    return devnet.provider.request(args as Parameters<typeof devnet.provider.request>[0])
  }) as EIP1193RequestFn
  aw = await createAgentWallet({
    chains: { devnet: { provider: { request }, chainId: devnet.chain.id, contracts: devnet.addressBook } },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    checkOperations: true,
    // The resource server listens on loopback.
    webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
  })
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  const { wallet } = await aw.createWallet({ agentName: 'outage-seller' })
  await devnet.faucet(wallet.address, parseEther('1'))
  const registered = await aw.registerIdentity({
    wallet: wallet.address,
    agentName: 'seller',
    agentType: 'data',
  })
  agent = { address: wallet.address, agentId: withStatus(registered, 'registered').identity.agentId }
  resources = await startX402ResourceServer(devnet, usdc, [
    { path: '/agent', amount: 10_000n, payTo: agent.address, extra: { agentId: agent.agentId } },
  ])
})
afterAll(async () => {
  await resources?.close()
  await aw?.close()
  await devnet?.close()
})

async function payingWallet(rule: Record<string, unknown>): Promise<Address> {
  const { wallet } = await aw.createWallet({ agentName: 'outage-buyer' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('10', 6))
  await aw.updatePolicyRules({ wallet: wallet.address, rules: [{ id: 'agents-only', ...rule }] })
  return wallet.address
}

const usdcOf = (owner: Address) =>
  publicClientOf(devnet).readContract({
    address: usdc,
    abi: [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ name: 'owner', type: 'address' }],
        outputs: [{ name: '', type: 'uint256' }],
      },
    ] as const,
    functionName: 'balanceOf',
    args: [owner],
  })

it('an identity registry the node does not answer for is chain_unavailable, not "no agent wallet"', async () => {
  const wallet = await payingWallet({ type: 'require_agent_identity' })
  unreachable = devnet.addressBook.erc8004.identityRegistry
  try {
    await expect(aw.fetch(`${resources.url}/agent`, {}, { wallet })).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
  } finally {
    unreachable = undefined
  }
  // Nothing was paid or recorded as blocked; with the node back, the same payment goes through.
  expect(await usdcOf(wallet)).toBe(parseUnits('10', 6))
  const { transactions } = await aw.listHistory({ wallet })
  expect(transactions).toEqual([])
  const paid = withStatus(await aw.fetch(`${resources.url}/agent`, {}, { wallet }), 'completed')
  expect(paid.payment!.transaction.status).toBe('confirmed')
})

it('a reputation registry the node does not answer for is chain_unavailable, not an unknown reputation', async () => {
  const wallet = await payingWallet({
    type: 'require_agent_identity',
    minReputation: { reviewers: [agent.address], minScore: '0', tag1: 'x402' },
  })
  unreachable = devnet.addressBook.erc8004.reputationRegistry
  try {
    await expect(aw.fetch(`${resources.url}/agent`, {}, { wallet })).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
  } finally {
    unreachable = undefined
  }
  expect((await aw.listHistory({ wallet })).transactions).toEqual([])
})
