import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit'
import { BaseError } from '../errors/baseError.js'
import type { SolanaAddressBook, SolanaChainHandle } from './types.js'

/** How to reach one Solana chain: an RPC URL or a @solana/kit transport (e.g. the embedded devnet's). */
export type SolanaChainConfig = {
  family: 'solana'
  rpcUrl?: string | undefined
  transport?: RpcTransport | undefined
  /** Mints and USD prices (the devnet's `agentwallet_addressBook`); a real cluster needs its own. */
  addressBook?: SolanaAddressBook | undefined
  explorerUrl?: string | (() => string | undefined) | undefined
  testnet?: boolean | undefined
  /** Polling interval for signature statuses, ms (default 400, a slot; a local chain 50). */
  pollingIntervalMs?: number | undefined
}

/**
 * A Solana chain's handle: a @solana/kit RPC over the configured transport or URL, SOL as its native
 * asset (9 decimals), and its address book.
 * @example const solana = solanaChainHandle('solana', { family: 'solana', transport: devnet.transport })
 */
export function solanaChainHandle(name: string, config: SolanaChainConfig): SolanaChainHandle {
  const transport =
    config.transport ??
    (config.rpcUrl === undefined ? undefined : createDefaultRpcTransport({ url: config.rpcUrl }))
  if (!transport) {
    throw new BaseError('validation_failed', `Solana chain "${name}" needs an rpcUrl or a transport`, {
      details: { chain: name },
    })
  }
  const explorer = config.explorerUrl
  return {
    name,
    family: 'solana',
    chainId: 0,
    nativeSymbol: 'SOL',
    nativeDecimals: 9,
    get explorerUrl() {
      return typeof explorer === 'function' ? explorer() : explorer
    },
    testnet: config.testnet ?? true,
    rpc: createSolanaRpcFromTransport(transport),
    transport,
    addressBook: config.addressBook ?? {},
  }
}
