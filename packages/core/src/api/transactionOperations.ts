import { cancelTransaction } from '../transactions/cancelTransaction.js'
import { estimateGas } from '../transactions/estimateGas.js'
import { getTransaction } from '../transactions/getTransaction.js'
import { getTransactionDetails } from '../transactions/getTransactionDetails.js'
import { listHistory } from '../transactions/listHistory.js'
import { sendTransaction } from '../transactions/sendTransaction.js'
import { speedUpTransaction } from '../transactions/speedUpTransaction.js'
import { transactionContract } from '../transactions/transactionContract.js'
import { waitForTransaction } from '../transactions/waitForTransaction.js'
import { bindOperation } from './defineOperation.js'

/** Transactions: send (with policy and approvals), status, waiting, history, gas estimates. */
export const transactionOperations = [
  bindOperation(transactionContract.send, sendTransaction),
  bindOperation(transactionContract.speedUp, speedUpTransaction),
  bindOperation(transactionContract.cancel, cancelTransaction),
  bindOperation(transactionContract.estimateGas, estimateGas),
  bindOperation(transactionContract.getTransaction, getTransaction),
  bindOperation(transactionContract.getTransactionDetails, getTransactionDetails),
  bindOperation(transactionContract.waitForTransaction, waitForTransaction),
  bindOperation(transactionContract.listHistory, listHistory),
] as const
