import { devnetContract } from '../devnet/devnetContract.js'
import { fundFromFaucet } from '../devnet/fundFromFaucet.js'
import { bindOperation } from './defineOperation.js'

/** Development chains only: the faucet. */
export const devnetOperations = [bindOperation(devnetContract.devnetFaucet, fundFromFaucet)] as const
