/**
 * An EVM address as text: the same type as viem's `Address`, written here so the contract (which a
 * browser loads) needs no viem.
 */
export type Address = `0x${string}`

/** `0x`-prefixed hex: the same type as viem's `Hex`. */
export type Hex = `0x${string}`
