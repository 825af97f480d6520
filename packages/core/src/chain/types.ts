import type { Address, PublicClient } from 'viem'

export type TokenInfo = { address: Address; symbol: string; decimals: number; name?: string | undefined }

/** Protocol contracts of one chain. Every entry is optional: a chain has what it has. */
export type AddressBook = {
  weth?: Address | undefined
  /**
   * Uniswap's Permit2, whose `approve` the policy reads as an allowance. Absent: its canonical
   * address `0x000000000022D473030F116dDEE9F6B43aC78BA3` (a deterministic deployment: where code
   * sits there, it is Permit2).
   */
  permit2?: Address | undefined
  tokens?: readonly TokenInfo[] | undefined
  uniswapV2?: readonly { name: string; factory: Address; router: Address }[] | undefined
  uniswapV3?: readonly { name: string; factory: Address; router: Address; quoter: Address }[] | undefined
  safe?:
    | {
        singleton: Address
        singletonL2: Address
        proxyFactory: Address
        fallbackHandler: Address
        multiSend: Address
        /** MultiSendCallOnly: batches of plain calls (no delegatecall inside). */
        multiSendCallOnly?: Address | undefined
      }
    | undefined
  ens?:
    | {
        registry: Address
        baseRegistrar?: Address | undefined
        controller?: Address | undefined
        publicResolver?: Address | undefined
        reverseRegistrar?: Address | undefined
        /**
         * ABI family of `controller`: `legacy` (2020–23: `registerWithConfig`, `rentPrice` → uint256;
         * what the devnet deploys; the default) or `current` (2023 on: `register(...data, reverseRecord, ...)`,
         * `rentPrice` → (base, premium)). Core registers only through `legacy` controllers so far.
         */
        controllerAbi?: 'legacy' | 'current' | undefined
      }
    | undefined
  erc8004?:
    | {
        identityRegistry: Address
        reputationRegistry?: Address | undefined
        validationRegistry?: Address | undefined
      }
    | undefined
  staking?: { lido?: Address | undefined } | undefined
  /** Chainlink AggregatorV3 feeds by pair, e.g. `ETH/USD`. */
  priceFeeds?: Readonly<Record<string, Address>> | undefined
}

export type ChainInfo = {
  name: string
  chainId: number
  nativeSymbol: string
  nativeDecimals: number
  /** Base URL of a block explorer, e.g. `https://etherscan.io`; absent on local chains. */
  explorerUrl?: string | undefined
  testnet: boolean
}

/** One configured chain: its facts, a viem client and its address book. */
export type ChainHandle = ChainInfo & {
  client: PublicClient
  contracts: AddressBook
}

/**
 * The ChainProvider port: named chains, each with a client and an address book.
 * @example const devnet = provider.get('devnet'); await devnet.client.getBlockNumber()
 */
export interface ChainProvider {
  readonly defaultChain: string
  /** Names of the configured chains. */
  list(): readonly ChainInfo[]
  /** The chain by name; rejects unknown names with `unsupported_chain`. */
  get(name: string): ChainHandle
  close?(): Promise<void>
}
