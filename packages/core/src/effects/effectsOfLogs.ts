import {
  type Address,
  decodeEventLog,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
  maxUint160,
  maxUint256,
  pad,
  toEventSelector,
  BaseError as ViemBaseError,
} from 'viem'
import { effectAbis } from './effectAbis.js'
import { effect } from './effectFactories.js'
import { mergeEffects } from './mergeEffects.js'
import type { Effect, EffectAsset, EffectStandard } from './types.js'

/** A log as receipts, traces and simulations carry it. */
export type EffectLog = { address: Address; topics: readonly Hex[]; data: Hex }

/** The symbol and decimals of a token, by its address in lower case (from `tokenOf`). */
export type TokenFacts = ReadonlyMap<
  string,
  Pick<EffectAsset, 'symbol' | 'decimals'> & { standard?: EffectStandard }
>

export type EffectsOfLogsOptions = {
  /** The account whose assets are read. */
  holder: Address
  /** Permit2: only its `Approval` is a Permit2 allowance. */
  permit2?: Address | undefined
  /** Symbols and decimals of the tokens the logs name; a missing one reads `UNKNOWN`, 0 decimals. */
  tokens?: TokenFacts | undefined
}

/**
 * What `logs` did to `holder`'s assets, merged (`mergeEffects`): ERC-20 and ERC-721 `Transfer` and
 * `Approval` (told apart by their topics: ERC-721 indexes the token id), `ApprovalForAll` (ERC-721 or
 * ERC-1155, as `tokens` says), ERC-1155 `TransferSingle` / `TransferBatch`, a wrapped coin's (WETH9's)
 * `Deposit` / `Withdrawal` and an ERC-4626 vault's `Deposit` / `Withdraw` (its shares in and out of
 * `owner`), from any contract — whether or not the address book names it — unless the same logs show
 * that token minted to or burnt from the holder by a `Transfer` (most vaults and some wrappers emit
 * both: one move, not two), Permit2 `Approval`. A log of another event is not a move of the holder's assets. An
 * `Approval` reads as a grant of the allowance it leaves (a `decreaseAllowance` too: logs do not
 * tell what it was before). Native value moves are not in logs: a receipt has only the top call's.
 * Pure: the tracker reads a confirmed transaction's effects with it.
 * @example effectsOfLogs(receipt.logs, { holder: wallet, tokens }) // [{ kind: 'out', … }]
 */
export function effectsOfLogs(logs: readonly EffectLog[], options: EffectsOfLogsOptions): Effect[] {
  const minted = mintsAndBurnsOf(logs, options.holder)
  return mergeEffects(logs.flatMap((log) => effectsOfLog(log, options, minted)))
}

/** `mint:`/`burn:` + token (lower case), for each ERC-20 `Transfer` from or to address zero naming the holder. */
function mintsAndBurnsOf(logs: readonly EffectLog[], holder: Address): ReadonlySet<string> {
  const zero = pad('0x00')
  const holderTopic = pad(holder).toLowerCase()
  const seen = new Set<string>()
  for (const log of logs) {
    if (log.topics[0] !== selectors.transfer || log.topics.length !== 3) continue
    const [, from, to] = log.topics.map((topic) => topic.toLowerCase())
    if (from === zero && to === holderTopic) seen.add(`mint:${log.address.toLowerCase()}`)
    if (to === zero && from === holderTopic) seen.add(`burn:${log.address.toLowerCase()}`)
  }
  return seen
}

const selectors = {
  transfer: toEventSelector('Transfer(address,address,uint256)'),
  approval: toEventSelector('Approval(address,address,uint256)'),
  approvalForAll: toEventSelector('ApprovalForAll(address,address,bool)'),
  transferSingle: toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
  transferBatch: toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'),
  deposit: toEventSelector('Deposit(address,uint256)'),
  withdrawal: toEventSelector('Withdrawal(address,uint256)'),
  vaultDeposit: toEventSelector('Deposit(address,address,uint256,uint256)'),
  vaultWithdraw: toEventSelector('Withdraw(address,address,address,uint256,uint256)'),
  permit2Approval: toEventSelector('Approval(address,address,address,uint160,uint48)'),
}

function effectsOfLog(log: EffectLog, options: EffectsOfLogsOptions, minted: ReadonlySet<string>): Effect[] {
  const { holder } = options
  const asset = (standard: EffectStandard, address: Address = log.address, tokenId?: bigint): EffectAsset => {
    const facts = options.tokens?.get(address.toLowerCase())
    return {
      standard,
      address: getAddress(address),
      symbol: facts?.symbol ?? 'UNKNOWN',
      decimals: standard === 'erc721' || standard === 'erc1155' ? 0 : (facts?.decimals ?? 0),
      ...(tokenId === undefined ? {} : { tokenId }),
    }
  }
  const topics = log.topics as [Hex, ...Hex[]]
  const is = (address: Address | undefined) => address !== undefined && isAddressEqual(address, log.address)
  try {
    switch (log.topics[0]) {
      case selectors.transfer: {
        if (log.topics.length === 4) {
          const { args } = decodeEventLog({
            abi: effectAbis.erc721,
            eventName: 'Transfer',
            topics,
            data: log.data,
          })
          return moved(holder, asset('erc721', log.address, args.tokenId), args.from, args.to, 1n)
        }
        const { args } = decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', topics, data: log.data })
        return moved(holder, asset('erc20'), args.from, args.to, args.value)
      }
      case selectors.approval: {
        if (log.topics.length === 4) {
          const { args } = decodeEventLog({
            abi: effectAbis.erc721,
            eventName: 'Approval',
            topics,
            data: log.data,
          })
          if (!isAddressEqual(args.owner, holder)) return []
          return [effect('grant', asset('erc721', log.address, args.tokenId), 1n, args.approved)]
        }
        const { args } = decodeEventLog({ abi: erc20Abi, eventName: 'Approval', topics, data: log.data })
        if (!isAddressEqual(args.owner, holder)) return []
        return [effect('grant', asset('erc20'), args.value, args.spender, args.value === maxUint256)]
      }
      case selectors.approvalForAll: {
        const { args } = decodeEventLog({
          abi: effectAbis.erc721,
          eventName: 'ApprovalForAll',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.owner, holder)) return []
        const standard = options.tokens?.get(log.address.toLowerCase())?.standard ?? 'erc721'
        const collection = asset(standard === 'erc1155' ? 'erc1155' : 'erc721')
        return [
          args.approved
            ? effect('grant', collection, 0n, args.operator, true)
            : effect('revoke', collection, 0n, args.operator),
        ]
      }
      case selectors.transferSingle: {
        const { args } = decodeEventLog({
          abi: effectAbis.erc1155,
          eventName: 'TransferSingle',
          topics,
          data: log.data,
        })
        return moved(holder, asset('erc1155', log.address, args.id), args.from, args.to, args.value)
      }
      case selectors.transferBatch: {
        const { args } = decodeEventLog({
          abi: effectAbis.erc1155,
          eventName: 'TransferBatch',
          topics,
          data: log.data,
        })
        return args.ids.flatMap((id, index) =>
          moved(holder, asset('erc1155', log.address, id), args.from, args.to, args.values[index] ?? 0n),
        )
      }
      case selectors.deposit: {
        const { args } = decodeEventLog({
          abi: effectAbis.weth,
          eventName: 'Deposit',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.dst, holder) || minted.has(`mint:${log.address.toLowerCase()}`)) return []
        return [effect('in', asset('erc20'), args.wad, log.address)]
      }
      case selectors.withdrawal: {
        const { args } = decodeEventLog({
          abi: effectAbis.weth,
          eventName: 'Withdrawal',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.src, holder) || minted.has(`burn:${log.address.toLowerCase()}`)) return []
        return [effect('out', asset('erc20'), args.wad, log.address)]
      }
      case selectors.vaultDeposit: {
        const { args } = decodeEventLog({
          abi: effectAbis.erc4626,
          eventName: 'Deposit',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.owner, holder) || minted.has(`mint:${log.address.toLowerCase()}`)) return []
        return [effect('in', asset('erc20'), args.shares, log.address)]
      }
      case selectors.vaultWithdraw: {
        const { args } = decodeEventLog({
          abi: effectAbis.erc4626,
          eventName: 'Withdraw',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.owner, holder) || minted.has(`burn:${log.address.toLowerCase()}`)) return []
        return [effect('out', asset('erc20'), args.shares, log.address)]
      }
      case selectors.permit2Approval: {
        if (!is(options.permit2)) return []
        const { args } = decodeEventLog({
          abi: effectAbis.permit2,
          eventName: 'Approval',
          topics,
          data: log.data,
        })
        if (!isAddressEqual(args.owner, holder)) return []
        return [
          effect(
            'grant',
            asset('permit2', args.token),
            args.amount,
            args.spender,
            args.amount === maxUint160,
          ),
        ]
      }
      default:
        return []
    }
  } catch (error) {
    // A log that wears a standard's topic but not its shape is no standard move: nothing of the holder's.
    if (error instanceof ViemBaseError) return []
    throw error
  }
}

/** A move of `amount` from `from` to `to`, seen from `holder`. */
function moved(holder: Address, asset: EffectAsset, from: Address, to: Address, amount: bigint): Effect[] {
  if (isAddressEqual(from, to)) return []
  if (isAddressEqual(from, holder)) return [effect('out', asset, amount, getAddress(to))]
  if (isAddressEqual(to, holder)) return [effect('in', asset, amount, getAddress(from))]
  return []
}
