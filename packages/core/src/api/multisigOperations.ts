import { confirmSafeTransaction } from '../multisig/confirmSafeTransaction.js'
import { deploySafe } from '../multisig/deploySafe.js'
import { getSafe } from '../multisig/getSafe.js'
import { multisigContract } from '../multisig/multisigContract.js'
import { proposeSafeTransaction } from '../multisig/proposeSafeTransaction.js'
import { bindOperation } from './defineOperation.js'

/** Safe v1.4.1 multisig wallets: deploy, propose, confirm (executes at threshold), read. */
export const multisigOperations = [
  bindOperation(multisigContract.deploySafe, deploySafe),
  bindOperation(multisigContract.proposeSafeTransaction, proposeSafeTransaction),
  bindOperation(multisigContract.confirmSafeTransaction, confirmSafeTransaction),
  bindOperation(multisigContract.getSafe, getSafe),
] as const
