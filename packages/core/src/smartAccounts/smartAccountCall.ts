import type { Address, Hex } from 'viem'

/** One call a smart account makes: to `to`, with `value` wei and `data` (both default to none). */
export type SmartAccountCall = { to: Address; value?: bigint | undefined; data?: Hex | undefined }
