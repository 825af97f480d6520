import type { BaseError } from '../errors/baseError.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { ChainUnavailableError } from '../errors/errors.js'

/**
 * A failed read of a Solana chain as our error: the chain could not be asked or would not answer
 * (`chain_unavailable`, retry later). The node's message stays in `cause`, out of the answer.
 * @example catch (error) { throw toSolanaChainError(error, chain.name) }
 */
export function toSolanaChainError(error: unknown, chain: string): BaseError {
  if (isAgentWalletError(error)) return error
  return new ChainUnavailableError(chain, { details: { chain }, cause: error })
}
