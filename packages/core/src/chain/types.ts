import type { Rpc, RpcTransport, SolanaRpcApi } from '@solana/kit'
import type { Address, PublicClient } from 'viem'
import type { ChainFamily } from '../vault/types.js'

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
  /** ERC-4337 EntryPoint v0.8 and MetaMask's Delegation Framework bound to it (smart wallets, session keys). */
  accountAbstraction?: AccountAbstractionContracts | undefined
}

/**
 * The account-abstraction stack of a chain: EntryPoint v0.8 (canonically
 * `0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108`) and the Delegation Framework's DelegationManager,
 * smart-account implementations (both constructed against that EntryPoint) and caveat enforcers.
 */
export type AccountAbstractionContracts = {
  entryPoint: Address
  delegationManager: Address
  /** HybridDeleGator implementation; a smart wallet is an ERC1967Proxy to it from `simpleFactory`. */
  hybridDeleGatorImpl: Address
  /** CREATE2 factory (`deploy(bytecode, salt)`) that deploys smart wallets as a user operation's factory. */
  simpleFactory: Address
  /** EIP7702StatelessDeleGator: the code an EOA delegates to by an EIP-7702 authorization. */
  eip7702DeleGator: Address
  /** Caveat enforcers a delegation's caveats point at. */
  enforcers: {
    timestamp: Address
    allowedTargets: Address
    allowedMethods: Address
    valueLte: Address
    nativeTokenPeriodTransfer: Address
    erc20PeriodTransfer: Address
    erc20TransferAmount: Address
    erc20BalanceChange: Address
    limitedCalls: Address
    redeemer: Address
  }
}

export type ChainInfo = {
  name: string
  /**
   * Which kind of chain: an EVM chain's handle is `get(name)`, a Solana one's `solana(name)`. Absent:
   * `evm` (a ChainProvider written before families).
   */
  family?: ChainFamily | undefined
  /** The EVM chain id; 0 on a Solana chain (a cluster is known by its genesis hash). */
  chainId: number
  nativeSymbol: string
  nativeDecimals: number
  /** Base URL of a block explorer, e.g. `https://etherscan.io`; absent on local chains. */
  explorerUrl?: string | undefined
  testnet: boolean
  /** Blocks after which a mined tx is final here, when configured (`chains.<name>.finalityDepth`). */
  finalityDepth?: number | undefined
  /**
   * A development chain (our devnet, anvil, hardhat): the faucet funds addresses here. Set by the
   * operator (`chains.<name>.devChain`, `serve --dev-chain`), else true for chain ids 31337 and 1337
   * (`isDevChain` reads it so).
   */
  devChain?: boolean | undefined
}

/** One RPC URL of a chain, shown without credentials, with a client that reaches only it (health). */
export type RpcEndpoint = { url: string; client: PublicClient }

/** One configured chain: its facts, a viem client and its address book. */
export type ChainHandle = ChainInfo & {
  client: PublicClient
  contracts: AddressBook
  /** Each configured RPC URL on its own (chains configured by URL); `client` goes through them all. */
  rpcs?: readonly RpcEndpoint[] | undefined
}

/** A Solana token the chain knows (an SPL mint): its base58 mint address, symbol and decimals. */
export type SolanaMint = { address: string; symbol: string; decimals: number; name?: string | undefined }

/** What a service knows of a Solana chain besides its RPC: its mints and USD prices (`'SOL/USD': '150'`). */
export type SolanaAddressBook = {
  mints?: readonly SolanaMint[] | undefined
  /** USD prices by pair as decimal strings, `SOL/USD` and `<symbol>/USD`. */
  prices?: Readonly<Record<string, string>> | undefined
}

/** One configured Solana chain: its facts, a @solana/kit RPC (and its transport) and its address book. */
export type SolanaChainHandle = Omit<ChainInfo, 'family'> & {
  family: 'solana'
  rpc: Rpc<SolanaRpcApi>
  /** The transport under `rpc`: a chain's own methods (the devnet's `agentwallet_mintTokens`) go through it. */
  transport: RpcTransport
  addressBook: SolanaAddressBook
}

/**
 * The ChainProvider port: named chains, each with a client and an address book.
 * @example const devnet = provider.get('devnet'); await devnet.client.getBlockNumber()
 */
export interface ChainProvider {
  readonly defaultChain: string
  /** Names of the configured chains. */
  list(): readonly ChainInfo[]
  /**
   * The EVM chain by name; rejects unknown names with `unsupported_chain` and a chain of another family
   * with `unsupported_chain_family`.
   */
  get(name: string): ChainHandle
  /** The Solana chain by name (`unsupported_chain`, `unsupported_chain_family` as `get`); absent: none. */
  solana?(name: string): SolanaChainHandle
  close?(): Promise<void>
}
