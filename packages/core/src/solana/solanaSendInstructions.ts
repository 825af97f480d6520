import { address, type Instruction, type TransactionSigner } from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import type { SolanaChainHandle, SolanaMint } from '../chain/types.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/** A send from a Solana wallet: `amount` lamports of SOL, or base units of `mint` (an SPL Token mint). */
export type SolanaSend = { to: string; amount: bigint; mint?: SolanaMint | undefined }

/**
 * The instructions of a send: a System transfer of SOL; or an SPL `transferChecked` between the two
 * owners' associated token accounts, after the recipient's is created (idempotently, paid by the
 * wallet) when the chain has none yet.
 * @example const instructions = await solanaSendInstructions(chain, payer, { to, amount: 1_000_000n, mint })
 */
export async function solanaSendInstructions(
  chain: SolanaChainHandle,
  payer: TransactionSigner,
  send: SolanaSend,
): Promise<Instruction[]> {
  const to = address(send.to)
  if (!send.mint) return [getTransferSolInstruction({ source: payer, destination: to, amount: send.amount })]
  const mint = address(send.mint.address)
  const tokenAccountOf = async (owner: typeof to) =>
    (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0]
  const [source, destination] = await Promise.all([tokenAccountOf(payer.address), tokenAccountOf(to)])
  const existing = await chain.rpc
    .getAccountInfo(destination, { encoding: 'base64' })
    .send()
    .catch((error: unknown) => {
      throw toSolanaChainError(error, chain.name)
    })
  const transfer = getTransferCheckedInstruction({
    source: source,
    mint,
    destination: destination,
    authority: payer,
    amount: send.amount,
    decimals: send.mint.decimals,
  })
  if (existing.value) return [transfer]
  return [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: to, mint }),
    transfer,
  ]
}
