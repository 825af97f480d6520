import { RpcError } from './rpcError.js'
import type { DevnetProvider } from './types.js'

/**
 * An EIP-1193 provider over a node's JSON-RPC on HTTP (anvil, hardhat, a served devnet): the node's
 * error comes back as an {@link RpcError} with its code and data, so viem decodes reverts as it does
 * the embedded devnet's.
 * @example const provider = httpProvider('http://127.0.0.1:8545'); await provider.request({ method: 'eth_chainId' })
 */
export function httpProvider(url: string, options: { timeoutMs?: number | undefined } = {}): DevnetProvider {
  let id = 0
  return {
    async request({ method, params }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      })
      const body = (await response.json().catch(() => undefined)) as
        | { result?: unknown; error?: { code: number; message: string; data?: unknown } }
        | undefined
      if (!body)
        throw new RpcError({ code: -32603, message: `HTTP ${response.status} without a JSON-RPC answer` })
      if (body.error) throw new RpcError(body.error)
      return body.result
    },
  }
}
