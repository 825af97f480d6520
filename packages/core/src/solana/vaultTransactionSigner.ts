import { address, type SignatureBytes, type TransactionPartialSigner } from '@solana/kit'
import type { Ed25519Signer } from '../vault/types.js'

/**
 * A vault's Ed25519 key as @solana/kit's transaction signer: kit compiles the message, the vault signs
 * its bytes. The secret never leaves the vault.
 * @example const payer = vaultTransactionSigner(await ctx.vault.ed25519.getSigner(wallet.address))
 */
export function vaultTransactionSigner(signer: Ed25519Signer): TransactionPartialSigner {
  const signerAddress = address(signer.address)
  return {
    address: signerAddress,
    signTransactions: (transactions) =>
      Promise.all(
        transactions.map(async (transaction) => {
          const signature = (await signer.signBytes(
            new Uint8Array(transaction.messageBytes),
          )) as SignatureBytes
          return Object.freeze({ [signerAddress]: signature })
        }),
      ),
  }
}
