import {
  type AgentWalletSession,
  type OperationMethods,
  type OperationName,
  operations,
  type Principal,
  relayerAccount,
} from '@agentwallet/core'
import type { Address } from 'viem'
import { parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startX402ResourceServer } from '../helpers/x402ResourceServer.js'
import type { HarnessServer } from './harnessServer.js'

/** A caller of the role matrix: its principal (in process) and its raw key (over HTTP). */
export type Caller = { name: CallerName; principal: Principal; key: string }
export type CallerName = 'agent (own)' | 'agent (another’s)' | 'approver' | 'admin' | 'other tenant admin'

/**
 * One operation's sample: a valid input naming agent A1's resources (made fresh for each call
 * where the call uses one up), and what those resources are to callers who do not own them.
 * - `resource`: the input names a wallet or record of A1 — another agent and another tenant find nothing (404).
 * - `none`: the input names nothing of anyone's (it acts in the caller's own scope): allowed callers succeed.
 * - `chain`: public chain data (names, prices, a Safe's owners) — any allowed caller succeeds.
 */
export type Sample<N extends OperationName> = {
  scope: 'resource' | 'none' | 'chain'
  /** For `resource` samples an agent of the same tenant cannot see but another tenant's admin can read from chain. */
  otherTenant?: 'chain' | undefined
  input: () => Promise<NonNullable<Parameters<OperationMethods[N]>[0]>>
  /** Undoes what `input` set up for the call, once it answered (e.g. automine paused for a pending tx). */
  after?: (() => Promise<void>) | undefined
}

export type RoleFixture = {
  callers: Caller[]
  samples: { [N in OperationName]: Sample<N> }
  /** Stops what the fixture serves (the x402 resource server). */
  close(): Promise<void>
}

const dead = '0x000000000000000000000000000000000000dEaD'
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address
let counter = 0
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`

/**
 * Tenant A with agents A1 and A2 (each owning a funded wallet), an approver and the root admin, and a
 * tenant B with its own admin; every kind of record A1 can own, and a sample input per operation.
 */
export async function createRoleFixture(h: HarnessServer, receiverUrl: string): Promise<RoleFixture> {
  const root = h.agentWallet.as(await h.agentWallet.authenticate(h.adminKey))
  const keyOf = async (name: string, role: 'agent' | 'approver') => {
    const { key } = await root.createApiKey({ name, role })
    return { key, principal: await h.agentWallet.authenticate(key) }
  }
  const a1 = await keyOf('role-agent-1', 'agent')
  const a2 = await keyOf('role-agent-2', 'agent')
  const approver = await keyOf('role-approver', 'approver')
  const tenantB = await root.createTenant({ name: unique('role-tenant-') })
  const adminB = { key: tenantB.key, principal: await h.agentWallet.authenticate(tenantB.key) }
  const callers: Caller[] = [
    { name: 'agent (own)', ...a1 },
    { name: 'agent (another’s)', ...a2 },
    { name: 'approver', ...approver },
    { name: 'admin', key: h.adminKey, principal: root.principal },
    { name: 'other tenant admin', ...adminB },
  ]

  const agent1: AgentWalletSession = h.agentWallet.as(a1.principal)
  const { wallet } = await agent1.createWallet({ agentName: 'role-wallet-a1' })
  const w1 = wallet.address
  const { wallet: proposerWallet } = await root.createWallet({ agentName: 'role-safe-proposer' })
  const { wallet: w2 } = await h.agentWallet.as(a2.principal).createWallet({ agentName: 'role-wallet-a2' })
  // The tenant's relayer pays the EIP-7702 upgrades' type-4 transactions (the operator funds it).
  const relayer = await relayerAccount(h.agentWallet.context, root.principal.tenantId)
  for (const address of [w1, proposerWallet.address, w2.address, relayer.address])
    await h.devnet.faucet(address, parseEther('1000'))
  // Sends above 5 ETH from A1's wallet wait for a human: the approvals, paused swaps and safes below.
  const w1Rules = [{ type: 'require_approval', asset: 'native', above: '5' }]
  await root.updatePolicyRules({ wallet: w1, rules: w1Rules })

  const sent = await agent1.send({ wallet: w1, to: dead, value: '0.001' })
  await agent1.waitForTransaction({ transaction: sent.transaction.id })
  // A send left in the mempool (automine off until `minePending`), for a speed-up or cancel to replace.
  const pendingSend = async () => {
    await h.devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
    return (await agent1.send({ wallet: w1, to: dead, value: '0.0001' })).transaction.id
  }
  const minePending = async () => {
    await h.devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
    await h.devnet.mine()
  }
  const pausedApproval = async () => {
    const paused = await agent1.send({ wallet: w1, to: dead, value: '6' })
    if (paused.status !== 'pending_approval') throw new Error('fixture: the send did not pause')
    return paused.approval.id
  }
  const approvalId = await pausedApproval()
  const pausedSwap = await agent1.swap({ wallet: w1, fromToken: 'ETH', toToken: 'USDC', amount: '6' })
  if (pausedSwap.status !== 'pending_approval') throw new Error('fixture: the swap did not pause')
  const identity = await agent1.registerIdentity({
    wallet: w1,
    agentName: 'role-identity',
    agentType: 'test',
  })
  if (identity.status !== 'registered') throw new Error('fixture: the identity did not register')
  const ensName = `${unique('rolename')}.eth`
  const ens = await agent1.registerEnsName({ name: ensName, wallet: w1, setReverse: true })
  await settledEns(agent1, ens.registration.id)
  const { address: safe } = await deployed(
    root.deploySafe({ owners: [proposerWallet.address, w1], threshold: 2, wallet: proposerWallet.address }),
  )
  const proposal = async () =>
    (await root.proposeSafeTransaction({ safe, wallet: proposerWallet.address, to: fresh(), value: '0' }))
      .proposal.safeTxHash
  const subscription = async () =>
    (await root.subscribeWebhook({ url: receiverUrl, events: ['wallet.created'] })).subscription.id
  const settledDelivery = async () => {
    const subscriptionId = await subscription()
    await root.createWallet({ agentName: unique('role-delivery-') })
    for (let attempt = 0; attempt < 400; attempt++) {
      const { deliveries } = await root.listWebhookDeliveries({ subscriptionId })
      if (deliveries[0] && deliveries[0].status !== 'pending') return deliveries[0].id
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error('fixture: no settled webhook delivery of the new subscription within 10 s')
  }

  // A settled x402 payment of A1's wallet to a registered ERC-8004 agent (the seller), to rate.
  const { wallet: seller } = await root.createWallet({ agentName: 'role-x402-seller' })
  await h.devnet.faucet(seller.address, parseEther('10'))
  const sellerIdentity = await root.registerIdentity({
    wallet: seller.address,
    agentName: 'role-seller',
    agentType: 'data',
  })
  if (sellerIdentity.status !== 'registered') throw new Error('fixture: the seller identity did not register')
  const usdc = h.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  const resources = await startX402ResourceServer(h.devnet, usdc, [
    { path: '/paid', amount: 10_000n, payTo: seller.address },
    // Fails once paid: the middleware settles nothing, the authorization stays open (to cancel).
    { path: '/refused', amount: 10_000n, payTo: seller.address, status: 500 },
  ])
  await h.devnet.mintToken(usdc, w1, parseUnits('10', 6))
  const paid = await agent1.payAndFetch({ wallet: w1, url: `${resources.url}/paid` })
  if (paid.status !== 'completed' || !paid.payment)
    throw new Error('fixture: the x402 payment did not settle')
  const payment = paid.payment.transaction.id
  const refusedPayment = async () => {
    const refused = await agent1
      .payAndFetch({ wallet: w1, url: `${resources.url}/refused` })
      .catch((error) => error)
    const transactionId = (refused as { details?: { transactionId?: string } }).details?.transactionId
    if (!transactionId) throw new Error('fixture: the refused x402 payment left no transaction')
    return transactionId
  }

  const chain = <N extends OperationName>(input: Sample<N>['input']): Sample<N> => ({ scope: 'chain', input })
  // A list of tenant A's (not shared): another tenant's admin finds nothing.
  const screeningList = async () => (await root.createScreeningList({ name: unique('role-list-') })).list.id
  const none = <N extends OperationName>(input: Sample<N>['input']): Sample<N> => ({ scope: 'none', input })
  const resource = <N extends OperationName>(input: Sample<N>['input']): Sample<N> => ({
    scope: 'resource',
    input,
  })
  const samples: RoleFixture['samples'] = {
    whoAmI: none(async () => ({})),
    listWallets: none(async () => ({})),
    createWallet: none(async () => ({ agentName: unique('role-created-') })),
    importWallet: none(async () => ({ privateKey: generatePrivateKey(), agentName: 'role-imported' })),
    // A fresh EOA wallet of A1's each time: an upgraded one cannot be upgraded again.
    upgradeWallet: resource(async () => ({
      wallet: (await agent1.createWallet({ agentName: unique('role-upgrade-') })).wallet.address,
    })),
    getWallet: resource(async () => ({ wallet: w1 })),
    getBalance: resource(async () => ({ wallet: w1 })),
    send: resource(async () => ({ wallet: w1, to: dead, value: '0.001' })),
    // The receiver answers 200: no 402, nothing paid; the matrix checks who may ask.
    payAndFetch: resource(async () => ({ wallet: w1, url: receiverUrl, method: 'POST', body: '{}' })),
    rateCounterparty: resource(async () => ({ wallet: w1, payment, score: '90' })),
    cancelPayment: resource(async () => ({ payment: await refusedPayment() })),
    estimateGas: resource(async () => ({ wallet: w1, to: dead, value: '0.001' })),
    speedUp: { ...resource(async () => ({ transaction: await pendingSend() })), after: minePending },
    cancel: { ...resource(async () => ({ transaction: await pendingSend() })), after: minePending },
    getTransaction: resource(async () => ({ transaction: sent.transaction.id })),
    getTransactionDetails: resource(async () => ({ transaction: sent.transaction.id })),
    waitForTransaction: resource(async () => ({ transaction: sent.transaction.id })),
    listHistory: resource(async () => ({ wallet: w1, limit: 5 })),
    getPolicyRules: resource(async () => ({ wallet: w1 })),
    updatePolicyRules: resource(async () => ({ wallet: w1, rules: w1Rules })),
    evaluatePolicy: resource(async () => ({ wallet: w1, to: dead, value: '0.001' })),
    listApprovals: none(async () => ({})),
    getApproval: resource(async () => ({ approvalId })),
    checkApprovalFunds: resource(async () => ({ approvalId })),
    approve: resource(async () => ({ approvalId: await pausedApproval() })),
    reject: resource(async () => ({ approvalId: await pausedApproval() })),
    createApiKey: none(async () => ({ name: 'role-made-key', role: 'agent' })),
    listApiKeys: none(async () => ({})),
    listAudit: none(async () => ({})),
    listKeyNames: none(async () => ({})),
    revokeApiKey: resource(async () => ({
      keyId: (await root.createApiKey({ name: 'to-revoke', role: 'agent' })).apiKey.id,
    })),
    createTenant: none(async () => ({ name: unique('role-new-tenant-') })),
    subscribeWebhook: none(async () => ({ url: receiverUrl, events: ['tx_confirmed'] })),
    listWebhooks: none(async () => ({})),
    listWebhookDeliveries: none(async () => ({})),
    retryWebhookDelivery: resource(async () => ({ deliveryId: await settledDelivery() })),
    deleteWebhook: resource(async () => ({ subscriptionId: await subscription() })),
    createScreeningList: none(async () => ({ name: unique('role-list-') })),
    listScreeningLists: none(async () => ({})),
    listScreeningEntries: resource(async () => ({ list: await screeningList() })),
    addScreeningEntries: resource(async () => ({
      list: await screeningList(),
      entries: [{ address: fresh(), reason: 'role matrix' }],
    })),
    removeScreeningEntries: resource(async () => ({
      list: await screeningList(),
      addresses: [fresh()],
      reason: 'role matrix',
    })),
    importScreeningList: resource(async () => ({
      list: await screeningList(),
      format: 'csv' as const,
      content: `${fresh()},role matrix\n`,
    })),
    registerIdentity: resource(async () => ({ wallet: w1, agentName: 'role-identity-2', agentType: 'test' })),
    listIdentities: none(async () => ({})),
    getIdentityRegistration: resource(async () => ({ registrationId: identity.identity.registrationId })),
    identitiesOfWallet: resource(async () => ({ wallet: w1 })),
    getIdentity: resource(async () => ({ agentId: identity.identity.agentId })),
    listEnsNames: none(async () => ({})),
    checkEnsName: chain(async () => ({ name: ensName })),
    registerEnsName: resource(async () => ({ name: `${unique('rolereg')}.eth`, wallet: w1 })),
    getEnsRegistration: resource(async () => ({ registrationId: ens.registration.id })),
    reverseEnsName: chain(async () => ({ address: w1 })),
    resolveEnsName: chain(async () => ({ name: ensName })),
    swap: resource(async () => ({ wallet: w1, fromToken: 'ETH', toToken: 'USDC', amount: '0.001' })),
    getSwap: resource(async () => ({ swapId: pausedSwap.swapId })),
    quoteSwap: resource(async () => ({ wallet: w1, fromToken: 'ETH', toToken: 'USDC', amount: '1' })),
    stake: resource(async () => ({ wallet: w1, protocol: 'lido', amount: '0.001' })),
    listAllowances: resource(async () => ({ wallet: w1 })),
    revokeAllowance: resource(async () => ({ wallet: w1, token: usdc, spender: dead })),
    getPrices: chain(async () => ({ tokens: ['ETH', 'USDC'] })),
    deploySafe: resource(async () => ({ wallet: w1, owners: [w1], threshold: 1 })),
    proposeSafeTransaction: resource(async () => ({ safe, wallet: w1, to: fresh(), value: '0' })),
    confirmSafeTransaction: resource(async () => ({ safe, safeTxHash: await proposal(), wallet: w1 })),
    // A Safe's owners are public chain data: another tenant reads them, with none of tenant A's records.
    getSafe: { scope: 'resource', otherTenant: 'chain', input: async () => ({ safe }) },
    devnetFaucet: none(async () => ({ address: fresh(), amount: '1' })),
  }
  return { callers, samples, close: () => resources.close() }
}

async function settledEns(session: AgentWalletSession, registrationId: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { registration } = await session.getEnsRegistration({ registrationId })
    if (registration.status === 'registered') return
    if (registration.status === 'failed')
      throw new Error(`fixture: ENS registration failed: ${registration.error?.message}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('fixture: the ENS registration did not finish within 30 s')
}

async function deployed(pending: ReturnType<AgentWalletSession['deploySafe']>) {
  const result = await pending
  if (result.status !== 'deployed') throw new Error('fixture: the Safe deployment paused')
  return result
}

/** Every operation must have a sample: the matrix covers the whole table. */
export function missingSamples(samples: Record<string, unknown>): string[] {
  return Object.keys(operations).filter((name) => !(name in samples))
}
