import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  type Instruction,
  lamports,
  pipe,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
} from '@solana-program/token'
import type { Genesis, SolanaDevnetMint } from './createGenesis.js'
import type { SolanaChain } from './createSolanaChain.js'
import { invalidParam } from './solanaRpcError.js'

export type Faucet = {
  address: Address
  airdrop(to: Address, amount: bigint): Promise<Signature>
  mintTokens(
    mint: string,
    owner: Address,
    amount: bigint,
  ): Promise<{ signature: Signature; tokenAccount: Address }>
}

/**
 * SOL and test tokens from the faucet key, as real transactions it signs (a transfer; an idempotent
 * associated-token-account creation and a `mintToChecked`), landed like any other: they have a
 * signature, a status and a meta, and the journal replays them. One at a time, so two requests never
 * sign the same message under the same blockhash.
 */
export function createFaucet(chain: SolanaChain, { faucet, mints }: Genesis): Faucet {
  let queue: Promise<unknown> = Promise.resolve()

  async function sign(instructions: Instruction[]): Promise<Signature> {
    const transaction = await pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(faucet, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(chain.latestBlockhash(), message),
      (message) => appendTransactionMessageInstructions(instructions, message),
      (message) => signTransactionMessageWithSigners(message),
    )
    const wire = new Uint8Array(getBase64Encoder().encode(getBase64EncodedWireTransaction(transaction)))
    return chain.send(wire)
  }

  function exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run, run)
    queue = next.catch(() => undefined)
    return next
  }

  function findMint(mint: string): SolanaDevnetMint {
    const found = mints.find((candidate) => candidate.address === mint || candidate.symbol === mint)
    if (!found) throw invalidParam(`${mint} is not a devnet test mint`)
    return found
  }

  return {
    address: faucet.address,
    /** Sends `amount` lamports to `to`; resolves with the transaction's signature. */
    airdrop(to: Address, amount: bigint): Promise<Signature> {
      return exclusive(() =>
        sign([getTransferSolInstruction({ source: faucet, destination: to, amount: lamports(amount) })]),
      )
    },
    /**
     * Mints `amount` base units of a test mint (address or symbol) to `owner`'s associated token
     * account, created when missing. Resolves with the signature and the token account.
     */
    mintTokens(mint: string, owner: Address, amount: bigint) {
      const { address, decimals, programId } = findMint(mint)
      return exclusive(async () => {
        const [token] = await findAssociatedTokenPda({ owner, mint: address, tokenProgram: programId })
        const signature = await sign([
          getCreateAssociatedTokenIdempotentInstruction({ payer: faucet, ata: token, owner, mint: address }),
          getMintToCheckedInstruction({ mint: address, token, mintAuthority: faucet, amount, decimals }),
        ])
        return { signature, tokenAccount: token }
      })
    },
  }
}
