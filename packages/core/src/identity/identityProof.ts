import type { Address, Hex } from 'viem'
import type { WalletSigner } from '../smartWallets/signAsWallet.js'

/** EIP-712 types of the proof of ownership: the agent wallet vouches for (chainId, registry, agentId). */
export const identityProofTypes = {
  AgentIdentityProof: [
    { name: 'chainId', type: 'uint256' },
    { name: 'registry', type: 'address' },
    { name: 'agentId', type: 'uint256' },
    { name: 'agentWallet', type: 'address' },
    { name: 'issuedAt', type: 'uint256' },
  ],
} as const

export const identityProofDomain = { name: 'AgentWallet Identity Proof', version: '1' } as const

/** The proof as JSON: uint256 values are decimal strings (turn them into bigint to verify). */
export type IdentityProof = {
  scheme: 'eip712'
  signer: Address
  signature: Hex
  typedData: {
    domain: { name: string; version: string; chainId: number }
    types: typeof identityProofTypes
    primaryType: 'AgentIdentityProof'
    message: { chainId: string; registry: Address; agentId: string; agentWallet: Address; issuedAt: string }
  }
}

export const howToVerifyIdentityProof = {
  summary:
    'Verify the EIP-712 signature of proof.typedData for proof.signer — by ECDSA recovery for an EOA wallet, by ' +
    "the wallet contract's ERC-1271 isValidSignature for a smart wallet (a public client's verifyTypedData does " +
    'both) — then check on chain that getAgentWallet(agentId) on the registry returns that address.',
  viem:
    "import { createPublicClient, http } from 'viem'\n" +
    'const client = createPublicClient({ transport: http(rpcUrl) })\n' +
    'const { domain, types, primaryType, message } = proof.typedData\n' +
    'const valid = await client.verifyTypedData({ address: proof.signer, domain, types, primaryType, signature: proof.signature,\n' +
    '  message: { ...message, chainId: BigInt(message.chainId), agentId: BigInt(message.agentId), issuedAt: BigInt(message.issuedAt) } })',
  onChain:
    'registry.getAgentWallet(agentId) must equal proof.signer (the standard clears it when the NFT changes hands).',
} as const

/**
 * Signs the proof as the agent wallet (`signAsWallet`: its key for an EOA, its owner key's EIP-1271
 * signature for a smart wallet; `signer` is the wallet's address either way).
 * @example const proof = await signIdentityProof(await signAsWallet(ctx, wallet), { chainId: 1, registry, agentId: 7n, issuedAt })
 */
export async function signIdentityProof(
  signer: Pick<WalletSigner, 'address' | 'signTypedData'>,
  parameters: IdentityProofParameters,
): Promise<IdentityProof> {
  const typedData = identityProofTypedData(signer.address, parameters)
  const { message } = typedData
  const signature = await signer.signTypedData(typedData)
  return {
    scheme: 'eip712',
    signer: signer.address,
    signature,
    typedData: {
      ...typedData,
      message: {
        chainId: message.chainId.toString(),
        registry: message.registry,
        agentId: message.agentId.toString(),
        agentWallet: message.agentWallet,
        issuedAt: message.issuedAt.toString(),
      },
    },
  }
}

type IdentityProofParameters = { chainId: number; registry: Address; agentId: bigint; issuedAt: Date }

/**
 * The typed data `agentWallet` signs as its proof (what the audit trail records of the signature).
 * @example const typedData = identityProofTypedData(wallet, { chainId: 1, registry, agentId: 7n, issuedAt })
 */
export function identityProofTypedData(agentWallet: Address, parameters: IdentityProofParameters) {
  return {
    domain: { ...identityProofDomain, chainId: parameters.chainId },
    types: identityProofTypes,
    primaryType: 'AgentIdentityProof' as const,
    message: {
      chainId: BigInt(parameters.chainId),
      registry: parameters.registry,
      agentId: parameters.agentId,
      agentWallet,
      issuedAt: BigInt(Math.floor(parameters.issuedAt.getTime() / 1000)),
    },
  }
}
