/**
 * Blocks after which a mined tx counts as final, by chain id, where nothing is configured. Ethereum
 * mainnet and its testnets finalise after two epochs (64 slots); the rollups here (OP Stack, Arbitrum)
 * reorganise only their unsafe head, a few blocks; Polygon PoS has reorganised deeper. Devnets reorganise
 * only when told to (`evm_revert`), so a small depth keeps tests and local runs quick.
 */
const depthByChainId: Readonly<Record<number, number>> = {
  1: 64,
  11155111: 64,
  17000: 64,
  560048: 64,
  10: 10,
  11155420: 10,
  8453: 10,
  84532: 10,
  42161: 10,
  421614: 10,
  137: 64,
  80002: 64,
  31337: 3,
  1337: 3,
}

/** A chain we know nothing of: deeper than any rollup's unsafe head, shallower than an epoch pair. */
const unknownChainDepth = 12

/**
 * The finality depth of a chain id when none is configured (`chains.<name>.finalityDepth`, or the
 * global `finalityDepth`).
 * @example defaultFinalityDepth(1) // 64
 */
export function defaultFinalityDepth(chainId: number): number {
  return depthByChainId[chainId] ?? unknownChainDepth
}
