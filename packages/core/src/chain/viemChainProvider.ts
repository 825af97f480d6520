import { createPublicClient, type EIP1193Provider, type PublicClient, type Transport } from 'viem'
import { BaseError } from '../errors/baseError.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import { devChainIds } from './devChainIds.js'
import { publicChains } from './publicChains.js'
import { rpcTransport, type TransportLifetime } from './rpcTransport.js'
import { type SolanaChainConfig, solanaChainHandle } from './solanaChainHandle.js'
import type { AddressBook, ChainHandle, ChainInfo, ChainProvider, SolanaChainHandle } from './types.js'

/** How to reach one chain: an EVM chain (the default family) or a Solana one (`family: 'solana'`). */
export type ChainConfig = EvmChainConfig | SolanaChainConfig

/** How to reach one EVM chain: an RPC URL, an EIP-1193 provider (e.g. the devnet) or a viem transport. */
export type EvmChainConfig = {
  family?: 'evm' | undefined
  chainId?: number | undefined
  rpcUrl?: string | undefined
  /** Several RPC URLs of the chain (instead of `rpcUrl`): ranked, each used when those before fail. */
  rpcUrls?: readonly string[] | undefined
  provider?: { request: EIP1193Provider['request'] } | undefined
  transport?: Transport | undefined
  contracts?: AddressBook | undefined
  /**
   * Base URL of a block explorer (`<url>/tx/<hash>` links), or a function read at each link: a server
   * that is its own explorer (the dashboard's transaction page) learns its address only once it listens.
   */
  explorerUrl?: string | (() => string | undefined) | undefined
  nativeSymbol?: string | undefined
  testnet?: boolean | undefined
  /**
   * Blocks after which a mined tx is final (the tracker re-checks its block until then); default by
   * chain id (`defaultFinalityDepth`: 64 on Ethereum, 10 on rollups, 3 on a devnet), or the global
   * `finalityDepth`.
   */
  finalityDepth?: number | undefined
  /**
   * A development chain whose node funds addresses (`hardhat_setBalance` / `anvil_setBalance`): the
   * faucet works here. Default: true for chain ids 31337 and 1337 (our devnet, anvil, hardhat).
   */
  devChain?: boolean | undefined
  /** Polling interval for receipts and blocks, ms (default 4000; local chains 50). */
  pollingIntervalMs?: number | undefined
}

export type ViemChainProviderOptions = {
  chains: Record<string, ChainConfig>
  /** The chain used when a request names none (default: the first configured). */
  defaultChain?: string | undefined
}

/**
 * The default ChainProvider: one viem public client per configured EVM chain, with the address book of
 * the known public chains merged under the configured contracts, and one @solana/kit RPC per Solana chain.
 * @example viemChainProvider({ chains: { sepolia: { rpcUrl: 'https://...' } } })
 */
export function viemChainProvider(options: ViemChainProviderOptions): ChainProvider {
  const handles = new Map<string, ChainHandle | SolanaChainHandle>()
  const lifetime: TransportLifetime = { closed: false }
  for (const [name, config] of Object.entries(options.chains))
    handles.set(
      name,
      config.family === 'solana' ? solanaChainHandle(name, config) : createHandle(name, config, lifetime),
    )
  const first = handles.keys().next().value
  const defaultChain = options.defaultChain ?? first
  if (defaultChain === undefined || !handles.has(defaultChain)) {
    throw new BaseError('validation_failed', 'No chains configured, or the default chain is not among them', {
      details: { chains: [...handles.keys()], defaultChain },
    })
  }
  return {
    defaultChain,
    list: () => [...handles.values()].map(toInfo),
    get: (name) => ofFamily(handles, name, 'evm'),
    solana: (name) => ofFamily(handles, name, 'solana'),
    async close() {
      lifetime.closed = true
    },
  }
}

type HandleOf<F> = F extends 'solana' ? SolanaChainHandle : ChainHandle

/** The chain `name` if it is of `family`: `unsupported_chain` when not configured, else `unsupported_chain_family`. */
function ofFamily<F extends 'evm' | 'solana'>(
  handles: ReadonlyMap<string, ChainHandle | SolanaChainHandle>,
  name: string,
  family: F,
): HandleOf<F> {
  const handle = handles.get(name)
  if (!handle) {
    throw new BaseError('unsupported_chain', `Chain "${name}" is not configured`, {
      details: { chain: name, supported: [...handles.keys()] },
    })
  }
  if ((handle.family ?? 'evm') !== family) {
    throw new UnsupportedChainFamilyError(
      `Chain "${name}" is a ${handle.family} chain; this needs ${family}`,
      {
        details: { chain: name, family: handle.family, families: [family] },
      },
    )
  }
  return handle as HandleOf<F>
}

function createHandle(name: string, config: EvmChainConfig, lifetime: TransportLifetime): ChainHandle {
  const known = publicChains[name]
  const chainId = config.chainId ?? known?.chainId
  if (chainId === undefined) {
    throw new BaseError('validation_failed', `Chain "${name}" needs a chainId`, { details: { chain: name } })
  }
  const local = config.provider !== undefined || devChainIds.includes(chainId)
  const { transport, rpcs } = rpcTransport(name, config, local, lifetime)
  const client = createPublicClient({
    transport,
    pollingInterval: config.pollingIntervalMs ?? (local ? 50 : 4_000),
  }) as PublicClient
  const explorer = config.explorerUrl ?? known?.explorerUrl
  return {
    name,
    family: 'evm',
    chainId,
    nativeSymbol: config.nativeSymbol ?? 'ETH',
    nativeDecimals: 18,
    // A getter, so `list()` and every view read the current value.
    get explorerUrl() {
      return typeof explorer === 'function' ? explorer() : explorer
    },
    testnet: config.testnet ?? known?.testnet ?? local,
    ...(config.finalityDepth === undefined ? {} : { finalityDepth: config.finalityDepth }),
    devChain: config.devChain ?? devChainIds.includes(chainId),
    client,
    contracts: mergeAddressBooks(known?.contracts ?? {}, config.contracts ?? {}),
    ...(rpcs ? { rpcs } : {}),
  }
}

function mergeAddressBooks(base: AddressBook, override: AddressBook): AddressBook {
  return {
    ...base,
    ...override,
    tokens: override.tokens ?? base.tokens,
    priceFeeds: { ...base.priceFeeds, ...override.priceFeeds },
  }
}

function toInfo(handle: ChainHandle | SolanaChainHandle): ChainInfo {
  const { name, family, chainId, nativeSymbol, nativeDecimals, explorerUrl, testnet, finalityDepth } = handle
  return {
    name,
    family,
    chainId,
    nativeSymbol,
    nativeDecimals,
    testnet,
    ...(explorerUrl === undefined ? {} : { explorerUrl }),
    ...(finalityDepth === undefined ? {} : { finalityDepth }),
  }
}
