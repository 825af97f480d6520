import { createRequire } from 'node:module'
import type { EdrContext, ProviderConfig } from '@nomicfoundation/edr'
import type { Hex } from 'viem'
import { RpcError } from './rpcError.js'
import type { DevnetProvider, RequestArguments } from './types.js'

type Edr = typeof import('@nomicfoundation/edr')

// EDR allows one context per process and its native addon is heavy: load and create it on first use,
// never at import, and share it between devnets.
let shared: Promise<{ edr: Edr; context: EdrContext }> | undefined

function edrContext() {
  shared ??= (async () => {
    const edr = createRequire(import.meta.url)('@nomicfoundation/edr') as Edr
    const context = new edr.EdrContext()
    await context.registerProviderFactory(edr.GENERIC_CHAIN_TYPE, edr.genericChainProviderFactory())
    return { edr, context }
  })()
  // A failed load is not cached: the next devnet tries again.
  shared.catch(() => {
    shared = undefined
  })
  return shared
}

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'))

/** EDR says `reverted with reason string 'x'` (hardhat's words); geth says `execution reverted: x`. */
function gethRevertMessage(message: string): string {
  const reason = /reverted with reason string '(.*)'$/s.exec(message)?.[1]
  return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`
}

/**
 * EDR reports reverts as -32000 with the revert data nested in `data.data`; geth and anvil use code 3
 * with `data` the revert bytes, which is what viem decodes into the contract's custom error.
 */
function toRpcError(error: { code: number; message: string; data?: unknown }): RpcError {
  const revert = (error.data as { data?: unknown } | undefined)?.data
  if (typeof revert === 'string' && revert.startsWith('0x')) {
    // geth's wording too ("execution reverted[: reason]"): viem recognises a revert by it.
    return new RpcError({ code: 3, message: gethRevertMessage(error.message), data: revert })
  }
  return new RpcError(error)
}

export type EdrProviderOptions = {
  chainId: number
  genesisTimestamp: number
  genesisBalances: readonly { address: Hex; balance: bigint }[]
  /** Keys EDR signs `eth_sendTransaction` with (the `eth_accounts` list). */
  ownedKeys: readonly Hex[]
}

/** An in-process EDR chain (Prague rules, automine) behind a plain EIP-1193 `request`. */
export async function createEdrProvider(options: EdrProviderOptions): Promise<DevnetProvider> {
  const { edr, context } = await edrContext()
  const config: ProviderConfig = {
    // Block time follows the wall clock: never behind the parent, equal to it within one second (a
    // burst of blocks would otherwise run the clock ahead a second a block, and timeouts with it).
    allowBlocksWithSameTimestamp: true,
    allowUnlimitedContractSize: false,
    // A reverting eth_call must be an error (as on geth and anvil), not revert data posing as a result.
    bailOnCallFailure: true,
    bailOnTransactionFailure: false,
    chainId: BigInt(options.chainId),
    coinbase: bytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
    defaultTransactionGasLimit: 30_000_000n,
    genesisState: options.genesisBalances.map(({ address, balance }) => ({
      address: bytes(address),
      balance,
    })),
    hardfork: 'Prague',
    initialBaseFeePerGas: 1_000_000_000n,
    minGasPrice: 0n,
    mining: { autoMine: true, blockGasLimit: 30_000_000n, memPool: { order: edr.MineOrdering.Priority } },
    network: { genesisBlockGasLimit: 30_000_000n, genesisBlockTime: BigInt(options.genesisTimestamp) },
    networkId: BigInt(options.chainId),
    observability: {},
    ownedAccounts: [...options.ownedKeys],
    precompileOverrides: [],
  }
  const provider = await context.createProvider(
    edr.GENERIC_CHAIN_TYPE,
    config,
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new edr.ContractDecoder(),
  )
  let id = 0
  return {
    async request({ method, params }: RequestArguments) {
      const response = await provider.handleRequest(
        JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      )
      const data = typeof response.data === 'string' ? JSON.parse(response.data) : response.data
      if (data.error) throw toRpcError(data.error)
      return data.result
    },
  }
}
