import { type Address, erc20Abi } from 'viem'
import { sharedRead } from '../chain/sharedRead.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import type { GasSettings, TransactionRecord } from './types.js'

/** ERC-20 base units a call pays out of the sending wallet itself (an ERC-20 send, a swap's input). */
export type TokenSpend = { token: Address; amount: bigint }

/** An estimate started ahead (`estimateAhead`): the gas settings, or what the node answered instead. */
export type Estimate = Promise<{ gas: GasSettings } | { error: unknown }>

/**
 * What the wallet's txs signed but not yet handed to the node will spend: the node's balance does not
 * show them yet (`inFlightOf` in broadcastLane.ts). `tokens` by lowercase token address.
 */
export type InFlight = { native: bigint; tokens: ReadonlyMap<string, bigint> }

/** What a caller that starts the estimate early, or has txs in flight, hands `prepareGas`. */
export type Ahead = { estimate?: Estimate | undefined; inFlight?: InFlight | undefined }

/**
 * Starts the gas estimate of a call: EIP-1559 fees and the gas limit. It needs no lock, so the money
 * path runs it while it waits for the wallet's; it never rejects (an error is kept for `prepareGas`,
 * which checks funds first, so a wallet short of funds reads `insufficient_funds`, not a revert).
 * Concurrent sends share the fee quote, and the gas estimate of the same call from the same wallet,
 * while one is being asked (`sharedRead`): an estimate ahead of the lock is of about now anyway.
 * @example const estimate = estimateAhead(chain, wallet.address, call)
 */
export function estimateAhead(chain: ChainHandle, from: Address, call: TransactionRecord['call']): Estimate {
  const value = BigInt(call.value)
  const estimateGas = () =>
    chain.client.estimateGas({
      account: from,
      to: call.to,
      value,
      data: call.data,
      ...(call.authorizationList?.length ? { authorizationList: call.authorizationList } : {}),
    })
  return Promise.all([
    sharedRead(chain, 'fees', () => chain.client.estimateFeesPerGas()),
    // An authorization list is signed per intent: such a call is estimated on its own.
    call.authorizationList?.length
      ? estimateGas()
      : sharedRead(chain, `gas ${from} ${call.to} ${value} ${call.data ?? ''}`, estimateGas),
  ]).then(
    ([fees, estimate]) => {
      // Contract calls can cost more at execution than at estimation (state moves); plain transfers cannot.
      const limit =
        (call.data && call.data !== '0x') || call.authorizationList?.length
          ? callGasLimit(estimate)
          : estimate
      const gas: GasSettings = {
        limit: limit.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      }
      return { gas }
    },
    (error: unknown) => ({ error }),
  )
}

/**
 * Room for what state and time change between `eth_estimateGas` and inclusion: two cold first writes
 * of a storage slot (2 × 22,100). A branch on the block's timestamp is the common case: a Uniswap V2
 * pair's first trade in a later second than its last `_update` writes both price accumulators
 * (zero to non-zero the first time), which an estimate against a block in that same second does not
 * see — a swap estimated at 134k then needed ~178k and ran out of gas at 1.2× alone.
 */
const stateMoveGas = 45_000n

/**
 * The gas limit for a contract call estimated at `estimate`: 20% over it plus `stateMoveGas`. Unused
 * gas is not paid; a higher limit only raises what the funds check reserves (limit × max fee).
 * @example callGasLimit(134_067n) // 205_880n
 */
export function callGasLimit(estimate: bigint): bigint {
  return (estimate * 12n) / 10n + stateMoveGas
}

/**
 * Estimates gas and EIP-1559 fees for a call (or takes the estimate started `ahead`) and checks the
 * wallet can pay: value + max fee in the native asset and, with `token`, that ERC-20 amount too,
 * beyond what its txs in flight will spend. A failure here means nothing is signed.
 * @example const gas = await prepareGas(chain, from, { to, value: '0' }, tokenSpendOf(record))
 */
export async function prepareGas(
  chain: ChainHandle,
  from: Address,
  call: TransactionRecord['call'],
  token?: TokenSpend | undefined,
  ahead: Ahead = {},
): Promise<GasSettings> {
  const value = BigInt(call.value)
  const inFlight = ahead.inFlight ?? { native: 0n, tokens: new Map() }
  try {
    const [estimated, balance, held] = await Promise.all([
      ahead.estimate ?? estimateAhead(chain, from, call),
      chain.client.getBalance({ address: from, blockTag: 'pending' }),
      token &&
        chain.client.readContract({
          address: token.token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [from],
          blockTag: 'pending',
        }),
    ])
    // Funds before the estimate: a transfer of more than the wallet holds only "reverts" in the estimate.
    if (token) {
      const free = (held ?? 0n) - (inFlight.tokens.get(token.token.toLowerCase()) ?? 0n)
      if (free < token.amount) throw insufficientFunds(chain, token.token, free, token.amount)
    }
    const free = balance - inFlight.native
    if (free < value) throw insufficientFunds(chain, 'native', free, value)
    if ('error' in estimated) throw estimated.error
    const required = value + BigInt(estimated.gas.limit) * BigInt(estimated.gas.maxFeePerGas)
    if (free < required) throw insufficientFunds(chain, 'native', free, required)
    return estimated.gas
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

/**
 * The most a signed tx can take from its wallet once mined: its value plus gas limit × max fee, and
 * the ERC-20 amount it pays out of the wallet (`tokenSpendOf`).
 * @example const { native, token } = spendOf(signed)
 */
export function spendOf(record: TransactionRecord): { native: bigint; token?: TokenSpend | undefined } {
  const gas = record.gas ? BigInt(record.gas.limit) * BigInt(record.gas.maxFeePerGas) : 0n
  return { native: BigInt(record.call.value) + gas, token: tokenSpendOf(record) }
}

/**
 * Checks the wallet holds an ERC-20 amount it authorizes someone else to move (an x402 payment,
 * whose payee pays the gas): `insufficient_funds` otherwise.
 * @example await requireTokenFunds(chain, wallet.address, { token, amount })
 */
export async function requireTokenFunds(chain: ChainHandle, from: Address, spend: TokenSpend): Promise<void> {
  const held = await chain.client
    .readContract({ address: spend.token, abi: erc20Abi, functionName: 'balanceOf', args: [from] })
    .catch((error: unknown) => {
      throw toChainError(error, chain.name)
    })
  if (held < spend.amount) throw insufficientFunds(chain, spend.token, held, spend.amount)
}

/**
 * Checks the wallet holds `value` of the native coin: `insufficient_funds` otherwise.
 * @example await requireNativeFunds(chain, wallet.address, BigInt(call.value))
 */
export async function requireNativeFunds(chain: ChainHandle, from: Address, value: bigint): Promise<void> {
  if (value === 0n) return
  const balance = await chain.client.getBalance({ address: from }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  if (balance < value) throw insufficientFunds(chain, 'native', balance, value)
}

/**
 * The ERC-20 amount an intent pays out of its own wallet; none for native value (the call's value
 * covers it) and none for a Safe's payment (`via`: the Safe pays, not the wallet).
 * @example await prepareGas(chain, record.from, record.call, tokenSpendOf(record))
 */
export function tokenSpendOf(intent: {
  asset: TransactionRecord['asset']
  amount: bigint | string
  via?: Address | undefined
}): TokenSpend | undefined {
  const amount = BigInt(intent.amount)
  if (intent.asset.address === 'native' || intent.via || amount === 0n) return undefined
  return { token: intent.asset.address, amount }
}

function insufficientFunds(
  chain: ChainHandle,
  asset: Address | 'native',
  balance: bigint,
  required: bigint,
): BaseError {
  const native = asset === 'native'
  const message = native
    ? 'The wallet cannot pay the value plus the maximum gas fee'
    : 'The wallet holds less of the token than the intent pays'
  return new BaseError('insufficient_funds', message, {
    details: native
      ? { chain: chain.name, balanceWei: balance.toString(), requiredWei: required.toString() }
      : { chain: chain.name, token: asset, balance: balance.toString(), required: required.toString() },
  })
}
