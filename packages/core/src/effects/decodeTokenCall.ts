import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  maxUint256,
  toFunctionSelector,
  BaseError as ViemBaseError,
} from 'viem'
import type { ChainHandle } from '../chain/types.js'
import { effectAbis } from './effectAbis.js'
import { effect } from './effectFactories.js'
import { hasCode } from './hasCode.js'
import { type TokenAsset, tokenOf } from './tokenOf.js'
import type { Effect } from './types.js'

/**
 * The effects on `holder` of a standard token call it sends to `token` with no value: ERC-20
 * `transfer`, `transferFrom`, `approve`, `increaseAllowance`, `decreaseAllowance`; ERC-721
 * `transferFrom`, both `safeTransferFrom`, `approve`, `setApprovalForAll`; ERC-1155
 * `safeTransferFrom`, `safeBatchTransferFrom`, `setApprovalForAll`. The contract's standard is read
 * first (`tokenOf`): ERC-20 and ERC-721 share selectors. Undefined when it is none of these calls, or
 * when a safe transfer would call into a recipient contract (whose hook may do anything: simulate it).
 * @example await decodeTokenCall(chain, wallet, usdc, transferData) // [{ kind: 'out', amount: 5_000_000n, … }]
 */
export async function decodeTokenCall(
  chain: ChainHandle,
  holder: Address,
  token: Address,
  data: Hex,
): Promise<Effect[] | undefined> {
  if (!tokenSelectors.has(data.slice(0, 10).toLowerCase())) return undefined
  const asset = await tokenOf(chain, token)
  try {
    if (asset?.standard === 'erc20') return erc20Effects(holder, asset, data)
    if (asset?.standard === 'erc721') return await erc721Effects(chain, holder, asset, data)
    if (asset?.standard === 'erc1155') return await erc1155Effects(chain, holder, asset, data)
  } catch (error) {
    // Calldata with a known selector but arguments that do not decode: the contract decides.
    if (error instanceof ViemBaseError) return undefined
    throw error
  }
  return undefined
}

const tokenSelectors = new Set(
  [...erc20Abi, ...effectAbis.erc20Allowance, ...effectAbis.erc721, ...effectAbis.erc1155]
    .filter((item) => item.type === 'function' && item.stateMutability !== 'view')
    .map((item) => toFunctionSelector(item as Parameters<typeof toFunctionSelector>[0]).toLowerCase()),
)

function erc20Effects(holder: Address, asset: TokenAsset, data: Hex): Effect[] | undefined {
  const call = decodeFunctionData({ abi: [...erc20Abi, ...effectAbis.erc20Allowance], data })
  switch (call.functionName) {
    case 'transfer':
      return moved(holder, asset, holder, call.args[0], call.args[1])
    case 'transferFrom':
      return moved(holder, asset, call.args[0], call.args[1], call.args[2])
    case 'approve':
      return [effect('grant', asset, call.args[1], call.args[0], call.args[1] === maxUint256)]
    case 'increaseAllowance':
      return [effect('grant', asset, call.args[1], call.args[0], call.args[1] === maxUint256)]
    case 'decreaseAllowance':
      return [effect('revoke', asset, call.args[1], call.args[0])]
    default:
      return undefined
  }
}

async function erc721Effects(chain: ChainHandle, holder: Address, token: TokenAsset, data: Hex) {
  const call = decodeFunctionData({ abi: effectAbis.erc721, data })
  switch (call.functionName) {
    case 'transferFrom':
    case 'safeTransferFrom': {
      const [from, to, tokenId] = call.args
      if (call.functionName === 'safeTransferFrom' && (await hasCode(chain, to))) return undefined
      return moved(holder, { ...token, tokenId }, from, to, 1n)
    }
    case 'approve':
      return [effect('grant', { ...token, tokenId: call.args[1] }, 1n, call.args[0])]
    case 'setApprovalForAll':
      return [operatorEffect(token, call.args[0], call.args[1])]
    default:
      return undefined
  }
}

async function erc1155Effects(chain: ChainHandle, holder: Address, token: TokenAsset, data: Hex) {
  const call = decodeFunctionData({ abi: effectAbis.erc1155, data })
  switch (call.functionName) {
    case 'safeTransferFrom':
    case 'safeBatchTransferFrom': {
      const [from, to] = call.args
      // Every ERC-1155 transfer calls a recipient contract's hook.
      if (await hasCode(chain, to)) return undefined
      const ids = call.functionName === 'safeTransferFrom' ? [call.args[2]] : call.args[2]
      const values = call.functionName === 'safeTransferFrom' ? [call.args[3]] : call.args[3]
      if (ids.length !== values.length) return undefined
      return ids.flatMap((tokenId, index) => moved(holder, { ...token, tokenId }, from, to, values[index]!))
    }
    case 'setApprovalForAll':
      return [operatorEffect(token, call.args[0], call.args[1])]
    default:
      return undefined
  }
}

/** A move of `amount` from `from` to `to`, seen from `holder`: out, in, or nothing of its own. */
function moved(holder: Address, asset: TokenAsset, from: Address, to: Address, amount: bigint): Effect[] {
  if (isAddressEqual(from, to)) return []
  if (isAddressEqual(from, holder)) return [effect('out', asset, amount, to)]
  if (isAddressEqual(to, holder)) return [effect('in', asset, amount, from)]
  return []
}

/** `setApprovalForAll`: a grant over the whole collection, or its revoke. */
function operatorEffect(token: TokenAsset, operator: Address, approved: boolean): Effect {
  return approved ? effect('grant', token, 0n, operator, true) : effect('revoke', token, 0n, operator)
}
