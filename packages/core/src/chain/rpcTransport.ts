import {
  createPublicClient,
  custom,
  type EIP1193Provider,
  fallback,
  http,
  type PublicClient,
  RpcRequestError,
  type Transport,
  BaseError as ViemBaseError,
} from 'viem'
import { BaseError } from '../errors/baseError.js'
import { redactRpcUrl } from './redactRpcUrl.js'
import type { RpcEndpoint } from './types.js'
import type { EvmChainConfig } from './viemChainProvider.js'

/**
 * Retries of a failed read (an HTTP 429/5xx, a rate limit, a timeout), with exponential backoff from
 * `retryDelay` ms, or the `Retry-After` the node sends. A local chain answers in a millisecond, so its
 * retries are few and quick: a devnet behind a flaky proxy rides out a blip without slowing tests.
 * viem never retries `eth_sendRawTransaction` (its action sends it with `retryCount: 0`).
 */
const retries = { local: { retryCount: 2, retryDelay: 10 }, remote: { retryCount: 3, retryDelay: 150 } }
const timeout = 15_000
/** How often several URLs of one chain are pinged to rank them (latency and stability), ms. */
const rankIntervalMs = 10_000

/** Stops what the transports run in the background (the ranking pings of several URLs). */
export type TransportLifetime = { closed: boolean }

/**
 * The transport of one chain: a given viem transport, an EIP-1193 provider, one URL, or several URLs
 * behind viem's `fallback`, ranked by pinging each (`eth_blockNumber`) every 10 s: a request goes to
 * the best-ranked URL and, when it fails to answer (down, timed out, rate-limited), to the next.
 * A send handed to the next URL is the same signed bytes: at worst a node answers "already known".
 * @example const { transport, rpcs } = rpcTransport('sepolia', { rpcUrls: [a, b] }, false, lifetime)
 */
export function rpcTransport(
  name: string,
  config: EvmChainConfig,
  local: boolean,
  lifetime: TransportLifetime,
): { transport: Transport; rpcs?: readonly RpcEndpoint[] } {
  const retry = local ? retries.local : retries.remote
  if (config.transport) return { transport: config.transport }
  if (config.provider) return { transport: custom(answeringAsOverHttp(config.provider), retry) }
  const urls = config.rpcUrls ?? (config.rpcUrl ? [config.rpcUrl] : [])
  if (urls.length === 0) {
    throw new BaseError('validation_failed', `Chain "${name}" needs an rpcUrl or a provider`, {
      details: { chain: name },
    })
  }
  const rpcs = urls.map((url) => ({
    url: redactRpcUrl(url),
    client: createPublicClient({ transport: http(url, { retryCount: 0, timeout }) }) as PublicClient,
  }))
  const [only] = urls
  if (urls.length === 1 && only) return { transport: http(only, { ...retry, timeout }), rpcs }
  const transport = fallback(
    urls.map((url) => http(url, { timeout })),
    {
      ...retry,
      rank: {
        interval: rankIntervalMs,
        timeout: 2_000,
        // viem's ranking loop has no stop: once closed, a ping that never settles parks it for good.
        ping: ({ transport }) =>
          lifetime.closed ? new Promise(() => {}) : transport.request({ method: 'eth_blockNumber' }),
      },
    },
  )
  return { transport, rpcs }
}

/**
 * The provider with a node's JSON-RPC error answer (an error with a numeric `code` and a message,
 * not viem's own) thrown as viem's `RpcRequestError`, as the HTTP transport throws it. Otherwise viem
 * takes it for an unknown failure (`UnknownRpcError`, code -1) and retries it: a revert (code 3) ran
 * again twice with backoff, each simulated user operation's expected revert included (four of the
 * seven `handleOps` calls of a smart send on the devnet). With its code kept, viem retries only what
 * it retries over HTTP (an internal error, a rate limit) and classifies the rest as it does there.
 * @example custom(answeringAsOverHttp(devnet.provider))
 */
export function answeringAsOverHttp(provider: { request: EIP1193Provider['request'] }): {
  request: EIP1193Provider['request']
} {
  return {
    request: (async (args: { method: string; params?: unknown }) => {
      try {
        return await provider.request(args as never)
      } catch (error) {
        throw asNodeAnswer(error, args)
      }
    }) as EIP1193Provider['request'],
  }
}

function asNodeAnswer(error: unknown, body: { method: string; params?: unknown }): unknown {
  if (!(error instanceof Error) || error instanceof ViemBaseError) return error
  const { code, data } = error as { code?: unknown; data?: unknown }
  if (typeof code !== 'number') return error
  return new RpcRequestError({
    body: { method: body.method, params: body.params },
    error: { code, message: error.message, ...(data === undefined ? {} : { data }) },
    url: 'eip1193-provider',
  })
}
