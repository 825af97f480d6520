import {
  type Address,
  type DecodeFunctionDataReturnType,
  decodeFunctionData,
  type Hex,
  isAddressEqual,
  maxUint160,
} from 'viem'
import { permit2Of } from '../chain/permit2Of.js'
import type { ChainHandle } from '../chain/types.js'
import { decodeSafeExecution } from './decodeSafeExecution.js'
import { decodeTokenCall } from './decodeTokenCall.js'
import { effectAbis } from './effectAbis.js'
import { effect, nativeAsset } from './effectFactories.js'
import { hasCode } from './hasCode.js'
import type { PredictedCall } from './predictEffects.js'
import { tokenOf } from './tokenOf.js'
import type { Effect } from './types.js'

/**
 * What `call`, sent by `from`, does to `holder`'s assets, read from its calldata alone, or undefined
 * when the calldata cannot tell (then simulate it). Decoded: a plain native transfer to an account
 * without code; WETH `deposit`/`withdraw`; Permit2 `approve`; the standard token calls
 * (`decodeTokenCall`); and, when `holder` is a Safe that `from` executes for, its `execTransaction`
 * of any of these or of a MultiSend batch of them (`decodeSafeExecution`). Value sent along with a
 * call that takes none (a token call) is left to the simulation, which sees it revert.
 * @example await decodeEffects(chain, { from: wallet }, { to: usdc, value: 0n, data }) // [{ kind: 'out', … }]
 */
export async function decodeEffects(
  chain: ChainHandle,
  accounts: { from: Address; holder?: Address | undefined },
  call: PredictedCall,
): Promise<Effect[] | undefined> {
  const holder = accounts.holder ?? accounts.from
  if (!isAddressEqual(holder, accounts.from)) {
    if (!isAddressEqual(call.to, holder) || call.value !== 0n || !call.data) return undefined
    return decodeSafeExecution(chain, holder, call.data, decodeEffects)
  }
  const native = nativeAsset(chain)
  if (call.data === undefined || call.data === '0x') {
    // A contract's receive() may do anything, even pull tokens through an old allowance.
    if (await hasCode(chain, call.to)) return undefined
    return call.value === 0n || isAddressEqual(call.to, holder)
      ? []
      : [effect('out', native, call.value, call.to)]
  }
  const { weth } = chain.contracts
  // WETH's deposit and withdraw; its transfer and approve are an ERC-20's, decoded below.
  if (weth && isAddressEqual(call.to, weth)) {
    const wrapping = await wethEffects(chain, weth, native, call.value, call.data)
    if (wrapping) return wrapping
  }
  if (call.value !== 0n) return undefined
  if (isAddressEqual(call.to, permit2Of(chain))) return permit2Effects(chain, call.data)
  return decodeTokenCall(chain, holder, call.to, call.data)
}

async function wethEffects(
  chain: ChainHandle,
  weth: Address,
  native: Effect['asset'],
  value: bigint,
  data: Hex,
): Promise<Effect[] | undefined> {
  let call: DecodeFunctionDataReturnType<typeof effectAbis.weth>
  try {
    call = decodeFunctionData({ abi: effectAbis.weth, data })
  } catch {
    return undefined
  }
  const wrapped = await tokenOf(chain, weth)
  if (!wrapped) return undefined
  if (call.functionName === 'deposit') {
    return value === 0n ? [] : [effect('out', native, value, weth), effect('in', wrapped, value, weth)]
  }
  if (value !== 0n) return undefined
  return [effect('out', wrapped, call.args[0], weth), effect('in', native, call.args[0], weth)]
}

/** Permit2 `approve(token, spender, amount, expiration)`: Permit2 may let `spender` pull `token`. */
async function permit2Effects(chain: ChainHandle, data: Hex): Promise<Effect[] | undefined> {
  let call: DecodeFunctionDataReturnType<typeof effectAbis.permit2>
  try {
    call = decodeFunctionData({ abi: effectAbis.permit2, data })
  } catch {
    return undefined
  }
  const [token, spender, amount] = call.args
  const asset = await tokenOf(chain, token)
  if (asset?.standard !== 'erc20') return undefined
  return [effect('grant', { ...asset, standard: 'permit2' }, amount, spender, amount === maxUint160)]
}
