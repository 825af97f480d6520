import type { AgentWallet } from '@agentwallet/core'
import { type Devnet, reputationRegistryAbi } from '@agentwallet/devnet'
import {
  type Address,
  createWalletClient,
  custom,
  keccak256,
  parseEther,
  parseEventLogs,
  parseUnits,
  stringToBytes,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

const price = 10_000n
let usdc: Address
let agent: { address: Address; agentId: string }
let stranger: Address
let resources: X402ResourceServer

beforeAll(async () => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  const { wallet } = await aw.createWallet({ agentName: 'x402-seller' })
  await devnet.faucet(wallet.address, parseEther('1'))
  const registered = await aw.registerIdentity({
    wallet: wallet.address,
    agentName: 'seller',
    agentType: 'data',
  })
  agent = { address: wallet.address, agentId: withStatus(registered, 'registered').identity.agentId }
  stranger = freshAddress()
  resources = await startX402ResourceServer(devnet, usdc, [
    { path: '/agent', amount: price, payTo: agent.address },
    { path: '/agent-claimed', amount: price, payTo: agent.address, extra: { agentId: agent.agentId } },
    { path: '/stranger', amount: price, payTo: stranger },
    { path: '/impostor', amount: price, payTo: stranger, extra: { agentId: agent.agentId } },
  ])
})
afterAll(async () => {
  await resources?.close()
})

async function payingWallet(rules: unknown[]): Promise<Address> {
  const { wallet } = await aw.createWallet({ agentName: 'x402-buyer' })
  await devnet.mintToken(usdc, wallet.address, parseUnits('10', 6))
  await aw.updatePolicyRules({ wallet: wallet.address, rules })
  return wallet.address
}

/** A reviewer (a devnet account outside AgentWallet) rating the agent in the Reputation Registry. */
async function review(account: number, value: bigint, decimals = 0): Promise<void> {
  const reviewer = createWalletClient({
    account: privateKeyToAccount(devnet.accounts[account]!.privateKey),
    chain: devnet.chain,
    transport: custom(devnet.provider),
  })
  await reviewer.writeContract({
    address: devnet.addressBook.erc8004.reputationRegistry,
    abi: reputationRegistryAbi,
    functionName: 'giveFeedback',
    args: [BigInt(agent.agentId), value, decimals, 'x402', '', '', '', zeroHash],
  })
}

describe('require_agent_identity: payees checked against ERC-8004', () => {
  it('pays an agent registered in the identity registry and refuses a payee that is none', async () => {
    const wallet = await payingWallet([{ id: 'agents-only', type: 'require_agent_identity' }])
    const paid = withStatus(await aw.fetch(`${resources.url}/agent`, {}, { wallet }), 'completed')
    expect(paid.payment).toMatchObject({ payee: agent.address, transaction: { status: 'confirmed' } })
    const { transaction } = await aw.getTransaction({ transaction: paid.payment!.transaction.id })
    expect(transaction.policy).toMatchObject({ decision: 'allow' })
    // The verified agent is kept on the intent (the dashboard shows it beside the payee).
    expect(transaction.meta?.payeeAgent).toEqual({
      agentId: agent.agentId,
      registry: devnet.addressBook.erc8004.identityRegistry,
    })

    await expect(aw.fetch(`${resources.url}/stranger`, {}, { wallet })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'agents-only', ruleType: 'require_agent_identity', payee: stranger },
    })
    expect(resources.served['/stranger']).toBe(0)
  })

  it('checks an agentId the requirement claims: its agentWallet must be the payee', async () => {
    const wallet = await payingWallet([{ id: 'agents-only', type: 'require_agent_identity' }])
    withStatus(await aw.fetch(`${resources.url}/agent-claimed`, {}, { wallet }), 'completed')
    await expect(aw.fetch(`${resources.url}/impostor`, {}, { wallet })).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleType: 'require_agent_identity', claimedAgentId: agent.agentId, payee: stranger },
    })
    expect(resources.served['/impostor']).toBe(0)
  })

  it('asks a minimum reputation from the listed reviewers only', async () => {
    const listed = privateKeyToAccount(devnet.accounts[5]!.privateKey).address
    const wallet = await payingWallet([
      {
        id: 'trusted',
        type: 'require_agent_identity',
        minReputation: { reviewers: [listed], minScore: '60', tag1: 'x402' },
      },
    ])
    const blocked = () => aw.fetch(`${resources.url}/agent`, {}, { wallet })
    await expect(blocked()).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'trusted', reputation: { count: '0' } },
    })
    await review(5, 40n)
    await review(6, 100n) // not a listed reviewer: it does not count
    await expect(blocked()).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'trusted', reputation: { count: '1', score: '40', minScore: '60' } },
    })
    await review(5, 1005n, 1) // 100.5: the listed reviewer's average is now 70.25
    const paid = withStatus(await aw.fetch(`${resources.url}/agent`, {}, { wallet }), 'completed')
    expect(paid.payment!.transaction.status).toBe('confirmed')
  })

  it('rates the agent a settled payment paid, with the payment as proofOfPayment', async () => {
    const wallet = await payingWallet([])
    await devnet.faucet(wallet, parseEther('1')) // the feedback is a transaction of the buyer's
    const paid = withStatus(await aw.fetch(`${resources.url}/agent`, {}, { wallet }), 'completed')
    const payment = paid.payment!
    const rated = await aw.rateCounterparty({ wallet, payment: payment.transaction.id, score: '92.5' })
    expect(rated.feedback).toMatchObject({
      agentId: agent.agentId,
      proofOfPayment: { fromAddress: wallet, toAddress: agent.address, txHash: payment.settlementTx },
    })
    const { transaction } = await aw.waitForTransaction({
      transaction: rated.transaction.id,
      timeoutMs: 10_000,
    })
    expect(transaction.status).toBe('confirmed')

    const client = publicClientOf(devnet)
    const reputation = {
      address: devnet.addressBook.erc8004.reputationRegistry,
      abi: reputationRegistryAbi,
    } as const
    expect(
      await client.readContract({
        ...reputation,
        functionName: 'getSummary',
        args: [BigInt(agent.agentId), [wallet], 'x402', ''],
      }),
    ).toEqual([1n, 925n, 1])
    const receipt = await client.getTransactionReceipt({ hash: transaction.hash! })
    const [posted] = parseEventLogs({
      abi: reputationRegistryAbi,
      logs: receipt.logs,
      eventName: 'NewFeedback',
    })
    const file = Buffer.from(posted!.args.feedbackURI.split(',')[1]!, 'base64').toString()
    expect(keccak256(stringToBytes(file))).toBe(posted!.args.feedbackHash)
    expect(JSON.parse(file)).toMatchObject({
      agentId: Number(agent.agentId),
      value: '925',
      valueDecimals: 1,
      endpoint: `${resources.url}/agent`,
      proofOfPayment: { fromAddress: wallet, toAddress: agent.address, txHash: payment.settlementTx },
    })

    const sent = await aw.send({ wallet, to: freshAddress(), value: '0.001' })
    await expect(
      aw.rateCounterparty({ wallet, payment: sent.transaction.id, score: '1' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})
