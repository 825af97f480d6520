import { evaluatePolicy } from '../policy/evaluatePolicy.js'
import { getPolicyRules } from '../policy/managePolicy.js'
import { policyContract } from '../policy/policyContract.js'
import { updateRulesAndSessions } from '../smartWallets/updateRulesAndSessions.js'
import { bindOperation } from './defineOperation.js'

/** Policy: read, replace (admins), dry-run evaluate. */
export const policyOperations = [
  bindOperation(policyContract.getPolicyRules, getPolicyRules),
  bindOperation(policyContract.updatePolicyRules, updateRulesAndSessions),
  bindOperation(policyContract.evaluatePolicy, evaluatePolicy),
] as const
