import type { Address, Hex } from 'viem'
import type { EffectLog } from './effectsOfLogs.js'

/** A value move of the native coin inside a simulated call tree. */
export type NativeTransfer = { from: Address; to: Address; value: bigint }

/**
 * What a node's simulation of one call says, whichever method ran it: the logs and native value moves
 * of the frames that did not revert, and the gas used; or the revert of the call itself.
 */
export type Simulation =
  | { status: 'success'; logs: EffectLog[]; transfers: NativeTransfer[]; gasUsed: bigint }
  | { status: 'reverted'; reason: string; data?: Hex | undefined }
