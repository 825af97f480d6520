import { type Address, decodeFunctionData, encodeFunctionData, type Hex, toFunctionSelector } from 'viem'
import { recordAudit } from '../audit/recordAudit.js'
import { typedDataSigned } from '../audit/typedDataSigned.js'
import {
  agentWalletSetDomainName,
  agentWalletSetTypes,
  identityRegistryAbi,
} from '../chain/identityRegistryAbi.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import { deployByRelayer } from '../smartWallets/deployByRelayer.js'
import { signAsWallet } from '../smartWallets/signAsWallet.js'
import type { TransactionRecord } from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'

/** The registry accepts deadlines up to 5 minutes past block time; 4 leaves room for inclusion. */
const deadlineSeconds = 240n
const setAgentWalletSelector = toFunctionSelector(
  'function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes signature)',
)

export type AgentWalletCallParameters = {
  registry: Address
  agentId: bigint
  /** The wallet to bind; it signs `AgentWalletSet` (`signAsWallet`: its key, or a smart wallet's EIP-1271 owner signature). */
  agentWallet: Address
  /** The NFT owner, who sends the call. */
  owner: Address
  /** The tenant whose audit trail records the signature. */
  tenantId: string
}

/**
 * `setAgentWallet` calldata with a fresh EIP-712 `AgentWalletSet` signature by the agent wallet.
 * The deadline counts from the latest block, not the wall clock: chain time may run ahead of it.
 * The registry checks it with OpenZeppelin's `SignatureChecker`: ECDSA for an EOA, ERC-1271 for a
 * contract — so a smart wallet's contract is deployed first when it is not yet (`deployByRelayer`).
 * @example const data = await agentWalletCall(ctx, chain, { registry, agentId, agentWallet, owner, tenantId })
 */
export async function agentWalletCall(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  parameters: AgentWalletCallParameters,
): Promise<Hex> {
  const { registry, agentId, agentWallet, owner } = parameters
  const wallet = await walletAt(ctx, parameters.tenantId, agentWallet)
  await deployByRelayer(ctx, chain, wallet)
  const block = await chain.client.getBlock({ blockTag: 'latest' }).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  const deadline = block.timestamp + deadlineSeconds
  const signer = await signAsWallet(ctx, wallet)
  const typedData = {
    domain: {
      name: agentWalletSetDomainName,
      version: '1',
      chainId: chain.chainId,
      verifyingContract: registry,
    },
    types: agentWalletSetTypes,
    primaryType: 'AgentWalletSet',
    message: { agentId, newWallet: agentWallet, owner, deadline },
  } as const
  const signature = await signer.signTypedData(typedData)
  // Recorded before the call carrying it is judged or sent: none is used unrecorded.
  await recordAudit(ctx, parameters.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: wallet.id, keyId: signer.keyId },
    payload: {
      ...typedDataSigned(typedData),
      for: 'identity_agent_wallet',
      agentId: agentId.toString(),
      scheme: signer.scheme,
    },
  })
  return encodeFunctionData({
    abi: identityRegistryAbi,
    functionName: 'setAgentWallet',
    args: [agentId, agentWallet, deadline, signature],
  })
}

/**
 * New calldata for a stored, not yet signed identity `setAgentWallet` intent: the same agentId and
 * wallet, sent by the same owner to the same registry, with a fresh deadline and signature.
 * Undefined for any other transaction. This is what lets an approval outlive the signature's deadline.
 * @example const data = await resignAgentWalletCall(ctx, chain, transaction)
 */
export async function resignAgentWalletCall(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: TransactionRecord,
): Promise<Hex | undefined> {
  const data = record.call.data
  if (record.kind !== 'identity' || !data?.startsWith(setAgentWalletSelector)) return undefined
  const call = decodeFunctionData({ abi: identityRegistryAbi, data })
  if (call.functionName !== 'setAgentWallet') return undefined
  const [agentId, agentWallet] = call.args
  return agentWalletCall(ctx, chain, {
    registry: record.call.to,
    agentId,
    agentWallet,
    owner: record.from,
    tenantId: record.tenantId,
  })
}

/** The tenant's wallet record at `address` (the agent wallet a registration binds). */
async function walletAt(ctx: AgentWalletContext, tenantId: string, address: Address): Promise<WalletRecord> {
  const [wallet] = await ctx.storage.query('wallets', { where: { tenantId, address }, limit: 1 })
  if (!wallet) throw new NotFoundError('Wallet', { details: { address } })
  return wallet
}
