import type { SignedAuthorization } from 'viem'
import type { AccountAbstractionContracts } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import type { VaultSigner } from '../vault/types.js'

/**
 * The EIP-7702 authorization by which the EOA of `signer` takes EIP7702StatelessDeleGator's code: put
 * it in a type-4 transaction's `authorizationList` (any account may send it). `nonce` is the EOA's
 * account nonce when another account sends the transaction, one more when the EOA sends it itself.
 * @example const authorization = await signUpgradeAuthorization(owner, { chainId, contracts, nonce })
 */
export function signUpgradeAuthorization(
  signer: VaultSigner,
  {
    chainId,
    contracts,
    nonce,
  }: { chainId: number; contracts: Pick<AccountAbstractionContracts, 'eip7702DeleGator'>; nonce: number },
): Promise<SignedAuthorization> {
  if (!signer.signAuthorization)
    throw new BaseError('not_implemented', 'This signer cannot sign EIP-7702 authorizations')
  return signer.signAuthorization({ chainId, contractAddress: contracts.eip7702DeleGator, nonce })
}
