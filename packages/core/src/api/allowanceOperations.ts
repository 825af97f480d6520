import { allowanceContract } from '../allowances/allowanceContract.js'
import { listAllowances } from '../allowances/listAllowances.js'
import { revokeAllowance } from '../allowances/revokeAllowance.js'
import { bindOperation } from './defineOperation.js'

/** The permissions a wallet granted (allowances, operators) that still stand, and taking them back. */
export const allowanceOperations = [
  bindOperation(allowanceContract.listAllowances, listAllowances),
  bindOperation(allowanceContract.revokeAllowance, revokeAllowance),
] as const
