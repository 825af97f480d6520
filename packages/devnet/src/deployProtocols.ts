import type { AddressBook } from '@agentwallet/core'
import type { Hex } from 'viem'
import { createDeployer, type Deployer } from './createDeployer.js'
import { deployAccountAbstraction } from './deployAccountAbstraction.js'
import { deployEns } from './deployEns.js'
import { deployErc8004 } from './deployErc8004.js'
import { deployPriceFeeds } from './deployPriceFeeds.js'
import { deploySafe } from './deploySafe.js'
import { deployTokens } from './deployTokens.js'
import { deployUniswapV2 } from './deployUniswapV2.js'
import { deployUniswapV3 } from './deployUniswapV3.js'
import { loadArtifact } from './loadArtifact.js'
import type { DevnetProvider } from './types.js'

/** Everything the devnet deploys; {@link AddressBook} plus devnet-only extras. */
export type DevnetAddressBook = AddressBook & {
  weth: `0x${string}`
  tokens: NonNullable<AddressBook['tokens']>
  uniswapV2: NonNullable<AddressBook['uniswapV2']>
  uniswapV3: readonly {
    name: string
    factory: `0x${string}`
    router: `0x${string}`
    quoter: `0x${string}`
    positionManager: `0x${string}`
  }[]
  safe: NonNullable<AddressBook['safe']> & { multiSendCallOnly: `0x${string}` }
  ens: Required<NonNullable<AddressBook['ens']>> & { priceOracle: `0x${string}` }
  erc8004: Required<NonNullable<AddressBook['erc8004']>>
  staking: { lido: `0x${string}` }
  priceFeeds: Record<'ETH/USD' | 'USDC/USD' | 'DAI/USD', `0x${string}`>
  accountAbstraction: NonNullable<AddressBook['accountAbstraction']>
}

/**
 * Deploys the whole protocol set from the deployer key, in a fixed order: the addresses depend only
 * on the deployer's nonces (and CREATE2 for Safe), so they are the same on every fresh start.
 */
export async function deployProtocols(
  provider: DevnetProvider,
  {
    chainId,
    deployerKey,
    ensMinCommitmentAge,
  }: { chainId: number; deployerKey: Hex; ensMinCommitmentAge: number },
): Promise<DevnetAddressBook> {
  const deployer = await createDeployer(provider, chainId, deployerKey)
  const { weth, tokens } = await deployTokens(deployer)
  const [usdc, dai] = tokens as [(typeof tokens)[0], (typeof tokens)[0]]
  const priceFeeds = await deployPriceFeeds(deployer)
  const lido = await deployer.deploy(loadArtifact('devnet-contracts', 'StakedEther'))
  const erc8004 = await deployErc8004(deployer)
  const uniswapV2 = await deployUniswapV2(deployer, { weth, usdc: usdc.address, dai: dai.address })
  const safe = await deploySafe(provider, deployer)
  const ens = await deployEns(deployer, {
    ethUsdFeed: priceFeeds['ETH/USD'],
    minCommitmentAge: ensMinCommitmentAge,
  })
  const before = { weth, tokens, uniswapV2, safe, ens, erc8004, staking: { lido }, priceFeeds }
  // Each addition goes last, so every contract deployed before it keeps the address it had before.
  const uniswapV3 = await deployV3(deployer, before)
  return { ...before, uniswapV3, accountAbstraction: await deployAccountAbstraction(provider, deployer) }
}

/** What a data dir made by an earlier version may lack: the protocols added since. */
type AddedLater = 'uniswapV3' | 'accountAbstraction'

/**
 * A data dir made by an earlier version lacks what was added since (Uniswap V3, account abstraction):
 * deploy it now, on top of the replayed chain. Returns `stored` itself when nothing is missing.
 */
export async function upgradeProtocols(
  provider: DevnetProvider,
  { chainId, deployerKey }: { chainId: number; deployerKey: Hex },
  stored: Omit<DevnetAddressBook, AddedLater> & Partial<Pick<DevnetAddressBook, AddedLater>>,
): Promise<DevnetAddressBook> {
  if (stored.uniswapV3 && stored.accountAbstraction) return stored as DevnetAddressBook
  const deployer = await createDeployer(provider, chainId, deployerKey)
  const uniswapV3 = stored.uniswapV3 ?? (await deployV3(deployer, stored))
  const accountAbstraction = stored.accountAbstraction ?? (await deployAccountAbstraction(provider, deployer))
  return { ...stored, uniswapV3, accountAbstraction }
}

function deployV3(deployer: Deployer, book: Pick<DevnetAddressBook, 'weth' | 'tokens' | 'uniswapV2'>) {
  const bySymbol = (symbol: string) => book.tokens.find((token) => token.symbol === symbol)!.address
  return deployUniswapV3(deployer, {
    weth: book.weth,
    usdc: bySymbol('USDC'),
    dai: bySymbol('DAI'),
    v2Factory: book.uniswapV2[0]!.factory,
  })
}
