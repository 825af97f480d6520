import { type Address, type Hex, hexToString, zeroAddress } from 'viem'
import type { z } from 'zod'
import { recordAudit } from '../audit/recordAudit.js'
import { typedDataSigned } from '../audit/typedDataSigned.js'
import { identityRegistryAbi } from '../chain/identityRegistryAbi.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { signAsWallet } from '../smartWallets/signAsWallet.js'
import type { Filter } from '../storage/types.js'
import { canSee } from '../wallets/findWallet.js'
import {
  howToVerifyIdentityProof,
  type IdentityProof,
  identityProofTypedData,
  signIdentityProof,
} from './identityProof.js'
import type { getIdentitySchema } from './identitySchemas.js'
import { fromDataUri } from './registrationFile.js'
import {
  type Identity,
  type IdentityRecord,
  isRegisteredIdentity,
  type RegisteredIdentity,
  toIdentity,
} from './types.js'

/**
 * How the chain and our record agree: `active` (the registry names our wallet), `wallet_unbound`
 * (the registry cleared the agent wallet, e.g. after a transfer of the NFT), `wallet_changed`
 * (another wallet is bound), `burned` (the token no longer exists).
 */
export type IdentityStatus = 'active' | 'wallet_unbound' | 'wallet_changed' | 'burned'

export type GetIdentityReturnType = Identity & {
  status: IdentityStatus
  /** The registry currently binds `walletAddress` as this agent's wallet. */
  walletBound: boolean
  onChain: {
    owner: Address | null
    agentURI: string | null
    agentWallet: Address | null
    metadata: { agentName: string | null; agentType: string | null }
  }
  /** The registration file, when the agentURI is a `data:` URI. */
  registration: unknown
  registries: { identity: Address; reputation: Address | null; validation: Address | null }
  proof: IdentityProof & { matchesChain: boolean }
  howToVerify: typeof howToVerifyIdentityProof
  warnings: string[]
}

/**
 * An identity we registered, read back from chain (owner, agentURI, metadata, agent wallet) and
 * merged with our record, with a fresh proof of ownership signed by the agent wallet.
 * @example const { identity } = await getIdentity(ctx, principal, { agentId: '7' })
 */
export async function getIdentity(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof getIdentitySchema>,
): Promise<{ identity: GetIdentityReturnType }> {
  const id = BigInt(input.agentId)
  const chainName = input.chain
  const record = await findIdentity(ctx, principal, id, chainName)
  const chain = ctx.chains.get(record.chain)
  const onChain = await readOnChain(chain, record.registry, id)
  const walletBound = onChain.agentWallet?.toLowerCase() === record.walletAddress.toLowerCase()
  const status: IdentityStatus = !onChain.owner
    ? 'burned'
    : walletBound
      ? 'active'
      : !onChain.agentWallet || onChain.agentWallet === zeroAddress
        ? 'wallet_unbound'
        : 'wallet_changed'
  const wallet = await ctx.storage.get('wallets', record.walletId)
  if (!wallet) throw new NotFoundError('Wallet', { details: { walletId: record.walletId } })
  const signer = await signAsWallet(ctx, wallet)
  const proved = { chainId: record.chainId, registry: record.registry, agentId: id, issuedAt: ctx.now() }
  const proof = await signIdentityProof(signer, proved)
  // Recorded before the proof is handed out: none is used unrecorded.
  await recordAudit(ctx, record.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: record.walletId, keyId: signer.keyId },
    payload: {
      ...typedDataSigned(identityProofTypedData(record.walletAddress, proved)),
      for: 'identity_proof',
      agentId: id.toString(),
      scheme: signer.scheme,
    },
  })
  const identity: GetIdentityReturnType = {
    ...toIdentity(record),
    status,
    walletBound,
    onChain,
    registration: onChain.agentURI ? (fromDataUri(onChain.agentURI) ?? null) : null,
    registries: {
      identity: record.registry,
      reputation: chain.contracts.erc8004?.reputationRegistry ?? null,
      validation: chain.contracts.erc8004?.validationRegistry ?? null,
    },
    proof: { ...proof, matchesChain: walletBound },
    howToVerify: howToVerifyIdentityProof,
    warnings: warningsFor(status, record, onChain),
  }
  return { identity }
}

async function findIdentity(
  ctx: AgentWalletContext,
  principal: Principal,
  agentId: bigint,
  chain: string | undefined,
): Promise<RegisteredIdentity> {
  const where: Filter = { tenantId: principal.tenantId, agentId: agentId.toString() }
  if (chain) where.chain = chain
  const records = await ctx.storage.query('identities', { where, orderBy: 'createdAt' })
  const visible = records.filter(isRegisteredIdentity).filter((record) => canSee(principal, record))
  const record = visible.find((candidate) => candidate.chain === ctx.chains.defaultChain) ?? visible[0]
  if (!record) throw new NotFoundError('Identity', { details: { agentId: agentId.toString(), chain } })
  return record
}

async function readOnChain(
  chain: ChainHandle,
  registry: Address,
  agentId: bigint,
): Promise<GetIdentityReturnType['onChain']> {
  const read = <T>(promise: Promise<T>): Promise<T | null> =>
    promise.catch((error: unknown) => {
      // A revert means "no such token / no value"; anything else (RPC down) is an error, never a guess.
      if (isRevert(error)) return null
      throw toChainError(error, chain.name, { read: true })
    })
  const contract = { address: registry, abi: identityRegistryAbi } as const
  const owner = await read(
    chain.client.readContract({ ...contract, functionName: 'ownerOf', args: [agentId] }),
  )
  if (!owner)
    return { owner: null, agentURI: null, agentWallet: null, metadata: { agentName: null, agentType: null } }
  const [agentURI, agentWallet, agentName, agentType] = await Promise.all([
    read(chain.client.readContract({ ...contract, functionName: 'tokenURI', args: [agentId] })),
    read(chain.client.readContract({ ...contract, functionName: 'getAgentWallet', args: [agentId] })),
    read(
      chain.client.readContract({ ...contract, functionName: 'getMetadata', args: [agentId, 'agentName'] }),
    ),
    read(
      chain.client.readContract({ ...contract, functionName: 'getMetadata', args: [agentId, 'agentType'] }),
    ),
  ])
  return {
    owner,
    agentURI,
    agentWallet: agentWallet && agentWallet !== zeroAddress ? agentWallet : null,
    metadata: { agentName: text(agentName), agentType: text(agentType) },
  }
}

function text(value: Hex | null): string | null {
  return value && value !== '0x' ? hexToString(value) : null
}

function warningsFor(
  status: IdentityStatus,
  record: IdentityRecord,
  onChain: GetIdentityReturnType['onChain'],
): string[] {
  if (status === 'burned') return ['The identity token no longer exists on chain.']
  const warnings: string[] = []
  if (status === 'wallet_unbound') {
    warnings.push(
      'The registry no longer binds an agent wallet to this identity (it is cleared when the NFT changes hands).',
    )
  }
  if (status === 'wallet_changed')
    warnings.push(`The registry binds another agent wallet: ${onChain.agentWallet}.`)
  if (onChain.owner && onChain.owner.toLowerCase() !== record.ownerAddress.toLowerCase()) {
    warnings.push(`The identity NFT is now owned by ${onChain.owner}, not ${record.ownerAddress}.`)
  }
  return warnings
}
