import { type Address, encodeFunctionData, erc20Abi, type Hex, hexToBigInt, isAddressEqual, size } from 'viem'
import { resolveAsset } from '../chain/resolveAsset.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import { effectAbis, interfaceIds } from './effectAbis.js'
import type { EffectAsset } from './types.js'

/** A token contract as the effects module names it: its standard, symbol and decimals (0 for NFTs). */
export type TokenAsset = EffectAsset & { standard: 'erc20' | 'erc721' | 'erc1155'; address: Address }

/**
 * What kind of token `address` is, told apart the way a careful wallet does, since ERC-20 and
 * ERC-721 share the `transferFrom` and `approve` selectors: a token of the address book (or its WETH)
 * is an ERC-20; else the contract says over ERC-165 whether it is an ERC-721 or an ERC-1155; else it
 * is an ERC-20 if it answers `decimals()`. Undefined when it is none (not a token, or no code). A node
 * that does not answer throws `chain_unavailable`.
 * @example const token = await tokenOf(chain, call.to) // { standard: 'erc721', symbol: 'NFT', … }
 */
export async function tokenOf(chain: ChainHandle, address: Address): Promise<TokenAsset | undefined> {
  const { tokens, weth } = chain.contracts
  const known = tokens?.find((token) => isAddressEqual(token.address, address))
  if (known) return { standard: 'erc20', address, symbol: known.symbol, decimals: known.decimals }
  // WETH9's fallback deposits: it would answer any ERC-165 question with nothing.
  if (weth && isAddressEqual(weth, address)) return erc20Of(chain, address)
  if (await supports(chain, address, interfaceIds.erc721)) {
    return { standard: 'erc721', address, symbol: await nftSymbol(chain, address), decimals: 0 }
  }
  if (await supports(chain, address, interfaceIds.erc1155)) {
    return { standard: 'erc1155', address, symbol: 'ERC1155', decimals: 0 }
  }
  return erc20Of(chain, address)
}

async function erc20Of(chain: ChainHandle, address: Address): Promise<TokenAsset | undefined> {
  try {
    const asset = await resolveAsset(chain, address)
    return { standard: 'erc20', address, symbol: asset.symbol, decimals: asset.decimals }
  } catch (error) {
    if (error instanceof BaseError && error.code === ValidationError.code) return undefined
    throw error
  }
}

/** ERC-165, read raw: only a 32-byte `true` counts (a fallback may answer anything, or nothing). */
async function supports(chain: ChainHandle, address: Address, interfaceId: Hex): Promise<boolean> {
  const data = encodeFunctionData({
    abi: effectAbis.erc721,
    functionName: 'supportsInterface',
    args: [interfaceId],
  })
  try {
    const answer = await chain.client.call({ to: address, data })
    return answer.data !== undefined && size(answer.data) === 32 && hexToBigInt(answer.data) === 1n
  } catch (error) {
    if (isRevert(error)) return false
    throw toChainError(error, chain.name, { read: true })
  }
}

async function nftSymbol(chain: ChainHandle, address: Address): Promise<string> {
  try {
    return await chain.client.readContract({ address, abi: erc20Abi, functionName: 'symbol' })
  } catch (error) {
    if (isRevert(error)) return 'NFT'
    throw toChainError(error, chain.name, { read: true })
  }
}
