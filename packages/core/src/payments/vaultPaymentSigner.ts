import type { ClientEvmSigner } from '@x402/evm'
import { type Address, getAddress } from 'viem'
import { BaseError } from '../errors/baseError.js'
import type { WalletSigner } from '../smartWallets/signAsWallet.js'

/** The one authorization a payment may sign: this token, payee and amount, on this chain. */
export type AuthorizedTransfer = {
  from: Address
  token: Address
  payee: Address
  amount: bigint
  chainId: number
}

/**
 * An x402 client signer over the vault: the wallet (`signAsWallet`: an EOA's key, or a smart
 * wallet's owner key signing as EIP-1271) signs an EIP-3009 `TransferWithAuthorization` (EIP-712,
 * the key stays in the vault) and only the one the intent was approved for; anything else is refused.
 * `onSigned` sees what was signed (the payment keeps its authorization to ask the chain about).
 * @example new ExactEvmScheme(vaultPaymentSigner(await signAsWallet(ctx, wallet), { from, token, payee, amount, chainId }))
 */
export function vaultPaymentSigner(
  account: WalletSigner,
  authorized: AuthorizedTransfer,
  onSigned?: (typedData: Parameters<ClientEvmSigner['signTypedData']>[0]) => void,
): ClientEvmSigner {
  return {
    address: account.address,
    async signTypedData(typedData) {
      assertAuthorized(typedData, authorized)
      const signature = await account.signTypedData(typedData as Parameters<typeof account.signTypedData>[0])
      onSigned?.(typedData)
      return signature
    },
  }
}

function assertAuthorized(
  typedData: Parameters<ClientEvmSigner['signTypedData']>[0],
  authorized: AuthorizedTransfer,
): void {
  const { domain, message, primaryType } = typedData
  const matches =
    primaryType === 'TransferWithAuthorization' &&
    sameAddress(domain.verifyingContract, authorized.token) &&
    BigInt(domain.chainId as number) === BigInt(authorized.chainId) &&
    sameAddress(message.from, authorized.from) &&
    sameAddress(message.to, authorized.payee) &&
    message.value === authorized.amount
  if (!matches)
    throw new BaseError('internal', 'Refused to sign an authorization other than the approved payment')
}

function sameAddress(value: unknown, address: Address): boolean {
  return typeof value === 'string' && getAddress(value) === address
}
