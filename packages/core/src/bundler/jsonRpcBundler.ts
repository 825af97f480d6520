import { type Address, type Hex, http, type Transport } from 'viem'
import { createBundlerClient, UserOperationReceiptNotFoundError } from 'viem/account-abstraction'
import { toBundlerError } from './toBundlerError.js'
import type { Bundler, SignedUserOperation, UserOperationGas } from './types.js'

export type JsonRpcBundlerOptions = {
  /** Reported as `bundler.name` and in error details (default "json-rpc"). */
  name?: string | undefined
} & (
  | { /** The bundler's HTTP JSON-RPC endpoint. */ url: string; transport?: undefined }
  | {
      /** Any viem transport to the bundler (WebSocket, a custom one in tests). */ transport: Transport
      url?: undefined
    }
)

/**
 * The Bundler port over an external ERC-4337 bundler's JSON-RPC (`eth_sendUserOperation`,
 * `eth_getUserOperationReceipt`, `eth_estimateUserOperationGas`), through viem's bundler client.
 * Tested against Pimlico's alto. Errors carry our codes (see {@link toBundlerError}).
 * @example const bundler = jsonRpcBundler({ url: 'http://127.0.0.1:4337' })
 */
export function jsonRpcBundler(options: JsonRpcBundlerOptions): Bundler {
  const name = options.name ?? 'json-rpc'
  // No retries inside: a send retried after a lost answer is the caller's decision (same op, same hash).
  const transport = options.transport ?? http(options.url, { retryCount: 0 })
  const client = createBundlerClient({ transport })

  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      throw toBundlerError(error, name)
    }
  }

  return {
    name,
    sendUserOperation(op: SignedUserOperation, entryPoint: Address): Promise<Hex> {
      return call(() => client.sendUserOperation({ ...op, entryPointAddress: entryPoint }))
    },
    async getUserOperationReceipt(hash: Hex) {
      try {
        return await client.getUserOperationReceipt({ hash })
      } catch (error) {
        if (error instanceof UserOperationReceiptNotFoundError) return undefined
        throw toBundlerError(error, name)
      }
    },
    estimateUserOperationGas(op: SignedUserOperation, entryPoint: Address): Promise<UserOperationGas> {
      return call(() => client.estimateUserOperationGas({ ...op, entryPointAddress: entryPoint }))
    },
  }
}
