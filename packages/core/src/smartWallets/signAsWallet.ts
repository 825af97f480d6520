import {
  type Address,
  type Hex,
  hashMessage,
  hashTypedData,
  parseAbi,
  type SignableMessage,
  type TypedData,
  type TypedDataDefinition,
} from 'viem'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { WalletRecord } from '../wallets/types.js'

/**
 * How a verifier checks the wallet's signature: `ecdsa` (recover the wallet's address from it) or
 * `erc1271` (ask the wallet's contract: `isValidSignature(digest, signature)` answers `0x1626ba7e`).
 */
export type WalletSignatureScheme = 'ecdsa' | 'erc1271'

/** Signs as a wallet, whatever its kind: what a protocol asks "the wallet" to sign. */
export type WalletSigner = {
  /** The account the signature speaks for: the wallet's address (a smart wallet's, not its owner key's). */
  address: Address
  /** The vault key that signs: the `keyId` of the signature's `vault.signature` audit entry. */
  keyId: Address
  scheme: WalletSignatureScheme
  signTypedData<const T extends TypedData | Record<string, unknown>, P extends keyof T | 'EIP712Domain'>(
    typedData: TypedDataDefinition<T, P>,
  ): Promise<Hex>
  signMessage(message: SignableMessage): Promise<Hex>
}

/** The EIP-1271 answer of a valid signature. */
export const erc1271MagicValue = '0x1626ba7e'

/** ERC-1271 as the DeleGators (and any contract wallet) implement it. */
export const erc1271Abi = parseAbi([
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])

/**
 * A signer for `wallet` itself. An EOA wallet: its vault key, a plain ECDSA signature. A smart wallet
 * (`hybrid`): its **owner key** signs the very digest the verifier computes (the EIP-712 digest of the
 * typed data, or the EIP-191 hash of the message), unwrapped — 65 bytes `r‖s‖v` — which is the EIP-1271
 * signature a HybridDeleGator accepts: its `isValidSignature(digest, sig)` recovers the signer with
 * `ECDSA.recover(digest, sig)` and answers `0x1626ba7e` when it is the owner (MetaMask's Delegation
 * Framework, `HybridDeleGator._isValidSignature`, 65-byte branch; no ERC-7739 rehashing). An EIP-7702
 * wallet (`eip7702`): its own key, which its EIP7702StatelessDeleGator checks the same way against its
 * own address. The contract must be deployed for a verifier to call it (no ERC-6492 wrapping here).
 * A relayer account signs for no one: 422 `wallet_kind_unsupported`.
 * @example const signer = await signAsWallet(ctx, wallet); const signature = await signer.signTypedData(typedData)
 */
export async function signAsWallet(ctx: AgentWalletContext, wallet: WalletRecord): Promise<WalletSigner> {
  const kind = wallet.kind ?? 'eoa'
  if (kind === 'relayer' || (kind === 'smart' && !wallet.smart)) {
    throw new BaseError('wallet_kind_unsupported', `A ${kind} wallet does not sign as an account`, {
      details: { wallet: wallet.address, kind, flow: 'sign' },
    })
  }
  const keyId = wallet.smart?.owner ?? wallet.address
  const key = await ctx.vault.getSigner(keyId)
  return {
    address: wallet.address,
    keyId,
    scheme: wallet.smart ? 'erc1271' : 'ecdsa',
    signTypedData: (typedData) => key.signTypedData(typedData),
    signMessage: (message) => key.signMessage({ message }),
  }
}

/**
 * The digest a verifier hands to `isValidSignature` for typed data or a message (what `signAsWallet`
 * signed), to check a wallet's signature on chain.
 * @example const valid = await client.readContract({ address: wallet, abi: erc1271Abi, functionName: 'isValidSignature', args: [signedDigest({ typedData }), signature] })
 */
export function signedDigest(signed: { typedData: TypedDataDefinition } | { message: SignableMessage }): Hex {
  return 'typedData' in signed ? hashTypedData(signed.typedData) : hashMessage(signed.message)
}
