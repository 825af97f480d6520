import { type Address, getAddress, type Hex, type LocalAccount } from 'viem'
import {
  sign,
  signAuthorization,
  signMessage,
  signTransaction,
  signTypedData,
  toAccount,
} from 'viem/accounts'

/**
 * A viem local account over a key whose address is already known, without deriving the public
 * key again (an elliptic-curve multiplication that costs as much as the signature itself).
 * @example const signer = signerFromKey(address, privateKey); await signer.signMessage({ message: 'hi' })
 */
export function signerFromKey(address: Address, privateKey: Hex): LocalAccount {
  return toAccount({
    address: getAddress(address),
    sign: ({ hash }) => sign({ hash, privateKey, to: 'hex' }),
    // An EIP-7702 delegation of this key's EOA (a smart wallet's session key, an upgraded wallet).
    signAuthorization: (authorization) => signAuthorization({ ...authorization, privateKey }),
    signMessage: ({ message }) => signMessage({ message, privateKey }),
    signTransaction: (transaction, options) =>
      signTransaction({ privateKey, transaction, serializer: options?.serializer }),
    signTypedData: (typedData) =>
      signTypedData({ ...typedData, privateKey } as Parameters<typeof signTypedData>[0]),
  })
}
