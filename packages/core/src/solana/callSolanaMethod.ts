import type { SolanaChainHandle } from '../chain/types.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/**
 * Calls a method outside kit's typed Solana API (the devnet's `agentwallet_mintTokens`,
 * `agentwallet_addressBook`) through the chain's transport; a JSON-RPC error or no answer rejects with
 * `chain_unavailable`, the node's message kept in `cause`.
 * @example await callSolanaMethod(chain, 'agentwallet_mintTokens', [owner, 'USDC', 1_000_000])
 */
export async function callSolanaMethod<T>(
  chain: Pick<SolanaChainHandle, 'name' | 'transport'>,
  method: string,
  params: readonly unknown[],
): Promise<T> {
  try {
    const answer = await chain.transport<{ result?: T; error?: { code: number; message: string } }>({
      payload: { jsonrpc: '2.0', id: 1, method, params },
    })
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
    return answer.result as T
  } catch (error) {
    throw toSolanaChainError(error, chain.name)
  }
}
