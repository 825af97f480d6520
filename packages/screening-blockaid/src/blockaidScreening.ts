import {
  type ScreeningCall,
  type ScreeningResult,
  type ScreeningSource,
  type ScreeningSubject,
  ScreeningUnavailableError,
} from '@agentwallet/core'
import Blockaid from '@blockaid/client'
import { reasonsOf, verdictOf } from './blockaidVerdict.js'

export type BlockaidScreeningOptions = {
  apiKey: string
  /** Blockaid's API (default `https://api.blockaid.io`); a test points it at a local server. */
  baseURL?: string | undefined
  /** Blockaid's chain name by chain id, over the defaults (Ethereum, Base, Optimism, Arbitrum, Polygon and their testnets). */
  chains?: Readonly<Record<number, string>> | undefined
  /** The `metadata.domain` Blockaid asks for; absent: the scan is marked `non_dapp`. */
  domain?: string | undefined
  /** Per request (default 5 s), and retries of a failed request (default 1). */
  timeoutMs?: number | undefined
  maxRetries?: number | undefined
  /** The source's name in verdicts and rules (default "blockaid"). */
  name?: string | undefined
}

const defaultChains: Readonly<Record<number, string>> = {
  1: 'ethereum',
  10: 'optimism',
  137: 'polygon',
  8453: 'base',
  42161: 'arbitrum',
  84532: 'base-sepolia',
  11155111: 'ethereum-sepolia',
}

/**
 * Blockaid as a ScreeningSource, through Blockaid's own client (`@blockaid/client`): an address is
 * scanned with `evm.address.scan`, a whole call with `evm.transaction.scan` (validation). Malicious
 * blocks, Warning warns, Benign clears; an `Error` result, an error status, no answer or a chain
 * Blockaid does not know is `screening_unavailable` — never clear. The API key and base URL are passed
 * explicitly: the client's own reading of `BLOCKAID_*` environment variables is never relied on.
 * @example const source = blockaidScreening({ apiKey: process.env.BLOCKAID_API_KEY! })
 */
export function blockaidScreening(options: BlockaidScreeningOptions): ScreeningSource {
  const name = options.name ?? 'blockaid'
  const client = new Blockaid({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? 'https://api.blockaid.io',
    timeout: options.timeoutMs ?? 5_000,
    maxRetries: options.maxRetries ?? 1,
  })
  const chains = { ...defaultChains, ...options.chains }
  const metadata = options.domain ? { domain: options.domain } : { non_dapp: true }
  const chainOf = (chainId: number, chain: string): string => {
    const known = chains[chainId]
    if (!known)
      throw new ScreeningUnavailableError(name, {
        details: { reason: `Blockaid does not scan chain ${chain}` },
      })
    return known
  }
  const unavailable = (error: unknown): never => {
    if (error instanceof ScreeningUnavailableError) throw error
    // The vendor's text stays out of the answer: its status says enough.
    const status = error instanceof Blockaid.APIError ? error.status : undefined
    throw new ScreeningUnavailableError(name, {
      cause: error,
      details: { reason: status ? `Blockaid answered ${status}` : 'Blockaid did not answer' },
    })
  }
  const answer = (
    result:
      | { result_type?: string; features?: unknown; reason?: string; classification?: string }
      | undefined,
  ): ScreeningResult => {
    const verdict = verdictOf(result?.result_type)
    if (!verdict)
      throw new ScreeningUnavailableError(name, {
        details: { reason: 'Blockaid could not scan it (result Error)' },
      })
    return { verdict, source: name, reasons: reasonsOf(result!, verdict) }
  }
  return {
    name,
    async screenAddress(subject: ScreeningSubject): Promise<ScreeningResult> {
      if (subject.family !== 'evm')
        throw new ScreeningUnavailableError(name, {
          details: { reason: `Blockaid is asked EVM addresses only` },
        })
      const chain = chainOf(subject.chainId, subject.chain)
      const result = await client.evm.address
        .scan({ address: subject.address, chain: chain as never, metadata })
        .catch(unavailable)
      return answer(result)
    },
    async screenCall(call: ScreeningCall): Promise<ScreeningResult> {
      const chain = chainOf(call.chainId, call.chain)
      const response = await client.evm.transaction
        .scan({
          account_address: call.from,
          chain,
          data: {
            from: call.from,
            to: call.to,
            value: `0x${BigInt(call.value).toString(16)}`,
            ...(call.data ? { data: call.data } : {}),
          },
          metadata,
          options: ['validation'],
        })
        .catch(unavailable)
      return answer(response.validation)
    },
  }
}
