import { type Address, type EIP1193RequestFn, type Hex, hexToBigInt, numberToHex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { EffectLog } from './effectsOfLogs.js'
import type { PredictedCall } from './predictEffects.js'
import { revertReason } from './revertReason.js'
import type { NativeTransfer, Simulation } from './simulation.js'

/** A frame of geth's `callTracer` (with `withLog`), as the devnet, geth, reth and hosted debug APIs answer. */
type CallFrame = {
  type: string
  from: Address
  to?: Address | undefined
  value?: Hex | undefined
  gasUsed?: Hex | undefined
  output?: Hex | undefined
  error?: string | undefined
  revertReason?: string | undefined
  logs?: EffectLog[] | undefined
  calls?: CallFrame[] | undefined
}

/**
 * Simulates `call` from `from` at the pending block with `debug_traceCall` and the `callTracer`, logs
 * included. Value moves come from the call tree; frames that reverted (and what they called) count
 * for nothing. No gas price is sent, so the fee is neither charged nor counted. Errors (a refusal, an
 * outage) are the caller's to classify.
 * @example const simulation = await traceCall(chain, wallet, { to, value: 0n, data })
 */
export async function traceCall(chain: ChainHandle, from: Address, call: PredictedCall): Promise<Simulation> {
  const tx = { from, to: call.to, value: numberToHex(call.value), data: call.data ?? '0x' }
  const tracer = { tracer: 'callTracer', tracerConfig: { withLog: true } }
  const request = chain.client.request as EIP1193RequestFn
  const top = await request<{ Method: string; Parameters: unknown[]; ReturnType: CallFrame }>({
    method: 'debug_traceCall',
    params: [tx, 'pending', tracer],
  })
  if (top.error !== undefined) {
    const data = top.output && top.output !== '0x' ? top.output : undefined
    return { status: 'reverted', reason: top.revertReason ?? revertReason(data, top.error), data }
  }
  const logs: EffectLog[] = []
  const transfers: NativeTransfer[] = []
  collect(top, logs, transfers)
  return { status: 'success', logs, transfers, gasUsed: top.gasUsed ? hexToBigInt(top.gasUsed) : 0n }
}

/** The kinds of frame that move their `value` (a DELEGATECALL's echoes its caller's; a STATICCALL has none). */
const valueMoving = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT'])

function collect(frame: CallFrame, logs: EffectLog[], transfers: NativeTransfer[]): void {
  if (frame.error !== undefined) return
  const value = frame.value ? hexToBigInt(frame.value) : 0n
  if (value > 0n && frame.to && valueMoving.has(frame.type))
    transfers.push({ from: frame.from, to: frame.to, value })
  // callTracer lists a frame's logs and its subcalls apart; `position` orders them, order does not matter here.
  logs.push(...(frame.logs ?? []))
  for (const child of frame.calls ?? []) collect(child, logs, transfers)
}
