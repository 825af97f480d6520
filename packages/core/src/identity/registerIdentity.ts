import { type Address, encodeFunctionData, parseEventLogs, toHex } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import type { IntentDraft } from '../transactions/submitIntent.js'
import { findWallet } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { agentWalletSetDomainName, agentWalletSetTypes, identityRegistryAbi } from './identityRegistryAbi.js'
import { identityRegistryOf } from './identityRegistryOf.js'
import { type RegisterIdentityParameters, registerIdentitySchema } from './identitySchemas.js'
import { buildRegistrationFile, toDataUri } from './registrationFile.js'
import { submitAndConfirm } from './submitAndConfirm.js'
import { agentRegistryId, type Identity, type IdentityRecord, identityRecordId, toIdentity } from './types.js'

export type RegisterIdentityReturnType = Identity

/** `setAgentWallet` signatures must be fresh; the registry accepts deadlines up to 5 minutes ahead. */
const deadlineSeconds = 240n

/**
 * Registers the wallet's agent in the chain's ERC-8004 Identity Registry: mint (owner pays, through
 * the policy engine) → write the registration file with its agentId as a `data:` agentURI →
 * bind the agent wallet with its EIP-712 signature when the registry has not bound it already →
 * store the identity and emit `identity.registered` in one commit.
 * @example const identity = await registerIdentity(ctx, principal, { walletAddress, agentName: 'trader', agentType: 'trading' })
 */
export async function registerIdentity(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: RegisterIdentityParameters,
): Promise<RegisterIdentityReturnType> {
  const input = parseInput(registerIdentitySchema, parameters)
  const wallet = await findWallet(ctx, principal, input.walletAddress)
  const owner = input.owner ? await findWallet(ctx, principal, input.owner) : wallet
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const registry = identityRegistryOf(chain)
  const call = (data: `0x${string}`, step: string): IntentDraft => ({
    kind: 'identity',
    chain: chain.name,
    to: registry,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: 0n,
    call: { to: registry, value: 0n, data },
    meta: { protocol: 'erc8004', step, walletAddress: wallet.address, agentName: input.agentName },
  })

  const metadata = [
    { metadataKey: 'agentName', metadataValue: toHex(input.agentName) },
    { metadataKey: 'agentType', metadataValue: toHex(input.agentType) },
  ]
  // The file names its own agentId, known only after the mint: mint without a URI, then set it.
  const minted = await submitAndConfirm(
    ctx,
    principal,
    owner,
    call(
      encodeFunctionData({ abi: identityRegistryAbi, functionName: 'register', args: ['', metadata] }),
      'register',
    ),
    'identity register',
  )
  const agentId = await agentIdOf(chain, registry, minted.hash!)
  const agentRegistry = agentRegistryId(chain.chainId, registry)
  const agentURI = toDataUri(buildRegistrationFile({ ...input, agentId, agentRegistry }))
  const uriSet = await submitAndConfirm(
    ctx,
    principal,
    owner,
    call(
      encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: 'setAgentURI',
        args: [agentId, agentURI],
      }),
      'setAgentURI',
    ),
    'identity setAgentURI',
  )
  const bound = await bindAgentWallet(ctx, principal, chain, registry, agentId, owner, wallet, call)

  const record: IdentityRecord = {
    id: identityRecordId(chain.chainId, registry, agentId),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    ownerId: wallet.ownerId,
    chain: chain.name,
    chainId: chain.chainId,
    registry,
    agentId: agentId.toString(),
    walletAddress: wallet.address,
    ownerAddress: owner.address,
    agentName: input.agentName,
    agentType: input.agentType,
    capabilities: input.capabilities ?? [],
    services: input.services ?? [],
    agentURI,
    transactions: { register: minted.id, setAgentURI: uriSet.id, setAgentWallet: bound?.id },
    hashes: { register: minted.hash, setAgentURI: uriSet.hash, setAgentWallet: bound?.hash },
    createdAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('identities', record)
    appendEvent(ctx, tx, record.tenantId, 'identity.registered', {
      agentId: record.agentId,
      chain: record.chain,
      chainId: record.chainId,
      agentRegistry,
      walletId: record.walletId,
      walletAddress: record.walletAddress,
      ownerAddress: record.ownerAddress,
      agentName: record.agentName,
      agentType: record.agentType,
      hash: minted.hash,
    })
  })
  return toIdentity(record)
}

async function agentIdOf(chain: ChainHandle, registry: Address, hash: `0x${string}`): Promise<bigint> {
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  const [registered] = parseEventLogs({
    abi: identityRegistryAbi,
    logs: receipt.logs,
    eventName: 'Registered',
  }).filter((log) => log.address.toLowerCase() === registry.toLowerCase())
  if (!registered) {
    throw new BaseError('transaction_failed', 'The register transaction emitted no Registered event', {
      details: { chain: chain.name, hash },
    })
  }
  return registered.args.agentId
}

/** Binds `wallet` as the agent wallet unless the registry already did (it binds the minter). */
async function bindAgentWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  chain: ChainHandle,
  registry: Address,
  agentId: bigint,
  owner: WalletRecord,
  wallet: WalletRecord,
  call: (data: `0x${string}`, step: string) => IntentDraft,
) {
  try {
    const current = await chain.client.readContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: 'getAgentWallet',
      args: [agentId],
    })
    if (current.toLowerCase() === wallet.address.toLowerCase()) return undefined
  } catch (error) {
    throw toChainError(error, chain.name)
  }
  const block = await chain.client.getBlock().catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  const deadline = block.timestamp + deadlineSeconds
  const signer = await ctx.vault.getSigner(wallet.address)
  const signature = await signer.signTypedData({
    domain: {
      name: agentWalletSetDomainName,
      version: '1',
      chainId: chain.chainId,
      verifyingContract: registry,
    },
    types: agentWalletSetTypes,
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet: wallet.address, owner: owner.address, deadline },
  })
  const data = encodeFunctionData({
    abi: identityRegistryAbi,
    functionName: 'setAgentWallet',
    args: [agentId, wallet.address, deadline, signature],
  })
  return submitAndConfirm(ctx, principal, owner, call(data, 'setAgentWallet'), 'identity setAgentWallet')
}
