/** Base units as the decimal string Solana's RPC calls `uiAmountString` ("1.5", "0", "1000"). */
export function formatUiAmount(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString()
  const negative = amount < 0n
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, -decimals)
  const fraction = digits.slice(-decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** The RPC's `uiTokenAmount` / `tokenAmount` object of an amount in base units. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const uiAmountString = formatUiAmount(amount, decimals)
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}
