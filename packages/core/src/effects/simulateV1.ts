import {
  type Address,
  decodeEventLog,
  type EIP1193RequestFn,
  erc20Abi,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  numberToHex,
} from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { EffectLog } from './effectsOfLogs.js'
import type { PredictedCall } from './predictEffects.js'
import { revertReason } from './revertReason.js'
import type { NativeTransfer, Simulation } from './simulation.js'

/** One call's result in an `eth_simulateV1` answer (execution-apis `eth_simulateV1`). */
type SimulatedCall = {
  status: Hex
  returnData?: Hex | undefined
  gasUsed?: Hex | undefined
  logs?: EffectLog[] | undefined
  error?: { code: number; message: string; data?: Hex | undefined } | undefined
}

/**
 * The pseudo-address `traceTransfers` logs native value moves from, as ERC-20 `Transfer`s
 * (execution-apis `eth_simulateV1`; geth, reth, Nethermind, Erigon).
 */
const nativeTransferLogAddress = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/**
 * Simulates `call` from `from` on top of the pending block with `eth_simulateV1`, `traceTransfers` on
 * (so native value moves come back as logs) and `validation` off (no fee is charged, so none is
 * counted). Errors (a refusal, an outage) are the caller's to classify.
 * @example const simulation = await simulateV1(chain, wallet, { to, value: 0n, data })
 */
export async function simulateV1(
  chain: ChainHandle,
  from: Address,
  call: PredictedCall,
): Promise<Simulation> {
  const tx = { from, to: call.to, value: numberToHex(call.value), data: call.data ?? '0x' }
  const request = chain.client.request as EIP1193RequestFn
  const [block] = await request<{
    Method: string
    Parameters: unknown[]
    ReturnType: { calls: SimulatedCall[] }[]
  }>({
    method: 'eth_simulateV1',
    params: [{ blockStateCalls: [{ calls: [tx] }], traceTransfers: true, validation: false }, 'pending'],
  })
  const result = block?.calls[0]
  if (!result) throw new Error('eth_simulateV1 answered no call result')
  if (result.status !== '0x1') {
    const data = result.error?.data ?? result.returnData
    const revertData = data && data !== '0x' ? data : undefined
    return { status: 'reverted', reason: revertReason(revertData, result.error?.message), data: revertData }
  }
  const logs: EffectLog[] = []
  const transfers: NativeTransfer[] = []
  for (const log of result.logs ?? []) {
    if (!isAddressEqual(log.address, nativeTransferLogAddress)) logs.push(log)
    else {
      const { args } = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      })
      transfers.push({ from: args.from, to: args.to, value: args.value })
    }
  }
  return { status: 'success', logs, transfers, gasUsed: result.gasUsed ? hexToBigInt(result.gasUsed) : 0n }
}
