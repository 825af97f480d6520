import { type Address, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { HarnessServer } from './harnessServer.js'

/** Real resources of tenant A (the root tenant) and the keys of every role, plus a second tenant B. */
export type TenantFixture = {
  keys: { adminA: string; agentA: string; approverA: string; adminB: string }
  /** Tenant A's resources, by the kind of path parameter that names them. */
  a: {
    wallet: Address
    agentWallet: Address
    txHash: string
    approvalId: string
    apiKeyId: string
    subscriptionId: string
    deliveryId: string
    safe: Address
    safeTxHash: string
    agentId: string
    identityRegistrationId: string
    ensRegistrationId: string
    ensName: string
    /** A swap paused for approval (`swp_…`). */
    swapId: string
    /** A screening list of tenant A's own (`scl_…`). */
    screeningListId: string
  }
  /** Tenant B's own funded wallet (to name as `from` in B's requests). */
  walletB: Address
  /** Strings of tenant A that must never appear in an answer to anyone else. */
  secrets: string[]
}

const dead = '0x000000000000000000000000000000000000dEaD'

/** Creates every kind of tenant-owned resource in tenant A through the HTTP API, and a tenant B. */
export async function createTenantFixture(h: HarnessServer, receiverUrl: string): Promise<TenantFixture> {
  const admin = h.adminKey
  const ok = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await h.call(method, path, { key, body })
    if (response.status >= 300) {
      throw new Error(`fixture ${method} ${path} → ${response.status} ${response.text.slice(0, 300)}`)
    }
    return response.body
  }
  const agentKey = await ok('POST', '/api-keys', admin, { name: 'victim-agent-key', role: 'agent' })
  const approverKey = await ok('POST', '/api-keys', admin, { name: 'victim-approver-key', role: 'approver' })
  const tenantB = await ok('POST', '/tenants', admin, { name: 'intruder-tenant' })
  const subscription = await ok('POST', '/webhooks/subscribe', admin, { url: receiverUrl, events: ['*'] })

  const wallet = (await ok('POST', '/wallet/create', admin, { agentName: 'victim-wallet-7f3a' })).wallet
    .address as Address
  const agentWallet = (await ok('POST', '/wallet/create', agentKey.key, { agentName: 'victim-agent-9c1e' }))
    .wallet.address as Address
  const walletB = (await ok('POST', '/wallet/create', tenantB.key, { agentName: 'intruder-wallet' })).wallet
    .address as Address
  for (const address of [wallet, agentWallet, walletB]) await h.devnet.faucet(address, parseEther('50'))

  const sent = await ok('POST', `/wallet/${wallet}/send`, admin, { to: dead, value: '0.001' })
  await ok('POST', '/policy/update', admin, {
    wallet,
    rules: [{ type: 'require_approval', asset: 'native', above: '1' }],
  })
  const paused = await ok('POST', `/wallet/${wallet}/send`, admin, { to: dead, value: '2' })
  const pausedSwap = await ok('POST', '/defi/swap', admin, {
    wallet,
    fromToken: 'ETH',
    toToken: 'USDC',
    amount: '2',
  })

  const outsider = privateKeyToAccount(generatePrivateKey()).address
  const deployed = await ok('POST', '/multisig/deploy', admin, {
    owners: [wallet, outsider],
    threshold: 2,
    from: wallet,
  })
  const safe = (deployed.safe?.address ?? deployed.address) as Address
  const proposed = await ok('POST', `/multisig/${safe}/propose`, admin, {
    from: wallet,
    to: dead,
    value: '0',
  })
  const identity = await ok('POST', '/identity/create', admin, {
    walletAddress: wallet,
    agentName: 'victim-identity-5d2b',
    agentType: 'trading',
  })
  const ensName = 'victimharness.eth'
  const registration = await ok('POST', '/ens/register', admin, { name: ensName, wallet })

  let deliveryId: string | undefined
  for (let attempt = 0; attempt < 100 && !deliveryId; attempt++) {
    const logs = await ok('GET', '/webhooks/logs', admin)
    deliveryId = logs.deliveries?.[0]?.id
    if (!deliveryId) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (!deliveryId) throw new Error('fixture: no webhook delivery was logged')

  const screeningList = await ok('POST', '/screening/lists', admin, { name: 'victim-list-4e8d' })

  const a = {
    wallet,
    agentWallet,
    txHash: sent.transaction.hash as string,
    approvalId: paused.approval.id as string,
    apiKeyId: agentKey.apiKey.id as string,
    subscriptionId: subscription.subscription.id as string,
    deliveryId,
    safe,
    safeTxHash: proposed.proposal.safeTxHash as string,
    agentId: String(identity.identity.agentId),
    identityRegistrationId: identity.identity.registrationId as string,
    ensRegistrationId: registration.registration.id as string,
    ensName,
    swapId: pausedSwap.swapId as string,
    screeningListId: screeningList.list.id as string,
  }
  return {
    keys: { adminA: admin, agentA: agentKey.key, approverA: approverKey.key, adminB: tenantB.key },
    a,
    walletB,
    secrets: [
      wallet,
      agentWallet,
      a.txHash,
      a.approvalId,
      a.apiKeyId,
      a.subscriptionId,
      a.deliveryId,
      a.safeTxHash,
      a.ensRegistrationId,
      a.identityRegistrationId,
      a.swapId,
      a.screeningListId,
      'victim-list-4e8d',
      'victim-wallet-7f3a',
      'victim-agent-9c1e',
      'victim-identity-5d2b',
      'victim-agent-key',
      'victim-approver-key',
      'victimharness',
      receiverUrl,
      admin,
      agentKey.key,
      approverKey.key,
    ],
  }
}
