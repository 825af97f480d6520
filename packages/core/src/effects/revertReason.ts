import { decodeErrorResult, type Hex, size } from 'viem'

/**
 * A readable reason for revert `data`: the message of `Error(string)`, the code of a `Panic`, else
 * the custom error's selector (its ABI is not known here).
 * @example revertReason('0x08c379a0…') // 'ERC20: transfer amount exceeds balance'
 */
export function revertReason(data: Hex | undefined, fallback = 'execution reverted'): string {
  if (data === undefined || size(data) < 4) return fallback
  try {
    const decoded = decodeErrorResult({ data })
    if (decoded.errorName === 'Error') return String(decoded.args?.[0])
    return `panic ${String(decoded.args?.[0])}`
  } catch {
    return `${fallback} (custom error ${data.slice(0, 10)})`
  }
}
