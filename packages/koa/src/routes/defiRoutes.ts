import { notImplemented } from './notImplemented.js'

/** Swaps, staking and prices: 501 until core's DeFi issue lands (replace this file). */
export const defiRoutes = [
  notImplemented('post', '/defi/swap', 'Swap tokens through the best venue', 'DeFi swaps'),
  notImplemented('post', '/defi/stake', 'Stake native or liquid-staking tokens', 'DeFi staking'),
  notImplemented('get', '/defi/prices', 'Token prices', 'DeFi prices'),
]
