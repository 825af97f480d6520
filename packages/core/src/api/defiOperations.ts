import { defiContract } from '../defi/defiContract.js'
import { getPrices } from '../defi/getPrices.js'
import { quoteSwap } from '../defi/quoteSwap.js'
import { stake } from '../defi/stake.js'
import { swap } from '../defi/swap.js'
import { getSwap } from '../defi/trackSwap.js'
import { bindOperation } from './defineOperation.js'

/** Swaps (best of every venue), a quote dry run, staking and prices. */
export const defiOperations = [
  bindOperation(defiContract.swap, swap),
  bindOperation(defiContract.getSwap, getSwap),
  bindOperation(defiContract.quoteSwap, quoteSwap),
  bindOperation(defiContract.stake, stake),
  bindOperation(defiContract.getPrices, getPrices),
] as const
