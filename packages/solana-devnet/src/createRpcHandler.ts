import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import { accountMethods } from './accountMethods.js'
import { clusterMethods } from './clusterMethods.js'
import type { RpcContext, RpcMethod } from './rpcContext.js'
import { rpcErrorCodes } from './solanaRpcError.js'
import { transactionMethods } from './transactionMethods.js'

const methods: Record<string, RpcMethod> = { ...accountMethods, ...transactionMethods, ...clusterMethods }

export type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: unknown; result: unknown }
  | { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string; data?: unknown } }

/** The JSON-RPC method names the devnet answers. */
export const solanaDevnetMethods: readonly string[] = Object.keys(methods)

/**
 * Answers one JSON-RPC request (already parsed, JSON numbers as bigints) in the shapes of a real
 * cluster; never rejects: failures are JSON-RPC errors.
 */
export function createRpcHandler(context: RpcContext) {
  return async function handle(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    const id = request.id ?? null
    const method = typeof request.method === 'string' && Object.hasOwn(methods, request.method)
    if (!method) {
      const message = typeof request.method === 'string' ? 'Method not found' : 'Invalid request'
      return {
        jsonrpc: '2.0',
        id,
        error: { code: typeof request.method === 'string' ? rpcErrorCodes.methodNotFound : -32600, message },
      }
    }
    try {
      const params = Array.isArray(request.params) ? request.params : []
      const result = await methods[request.method as string]?.(context, params)
      return { jsonrpc: '2.0', id, result: result ?? null }
    } catch (error) {
      const {
        code,
        message = 'Internal error',
        data,
      } = error as { code?: unknown; message?: string; data?: unknown }
      if (typeof code !== 'number')
        return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } }
      return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }
    }
  }
}

/**
 * `@solana/kit`'s `RpcTransport` over the handler, in process: the response goes through the same
 * bigint-preserving JSON as over HTTP, so `createSolanaRpcFromTransport(transport)` sees what
 * `createSolanaRpc(url)` sees.
 * @example const rpc = createSolanaRpcFromTransport(devnet.transport)
 */
export function inProcessTransport(handle: ReturnType<typeof createRpcHandler>) {
  return async <TResponse>({ payload }: { payload: unknown; signal?: AbortSignal }): Promise<TResponse> => {
    const request = parseJsonWithBigInts(stringifyJsonWithBigInts(payload)) as JsonRpcRequest
    return parseJsonWithBigInts(stringifyJsonWithBigInts(await handle(request))) as TResponse
  }
}
