import type { Address, Hex, LocalAccount } from 'viem'
import { hashMessage, hashTypedData, keccak256, parseSignature, serializeTransaction } from 'viem'
import { toAccount } from 'viem/accounts'

/**
 * A viem local account whose every signature comes from one `sign(hash)`: messages, typed data and
 * transactions are hashed here as viem's own private-key account hashes them.
 * @example const account = signerFromSign(address, (hash) => hsm.sign(hash))
 */
export function signerFromSign(address: Address, sign: (hash: Hex) => Promise<Hex>): LocalAccount {
  return toAccount({
    address,
    sign: ({ hash }) => sign(hash),
    signMessage: ({ message }) => sign(hashMessage(message)),
    signTypedData: (typedData) => sign(hashTypedData(typedData)),
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction
      // Blob sidecars are not part of what is signed (as in viem's signTransaction).
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction
      const signature = await sign(keccak256(await serializer(signable)))
      return serializer(transaction, parseSignature(signature))
    },
  })
}
