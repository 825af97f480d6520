import { checkEnsName } from '../ens/checkEnsName.js'
import { ensContract } from '../ens/ensContract.js'
import { getEnsRegistration, listEnsNames } from '../ens/listEnsNames.js'
import { registerEnsName } from '../ens/registerEnsName.js'
import { resolveEnsName, reverseEnsName } from '../ens/resolveEnsName.js'
import { bindOperation } from './defineOperation.js'

/** ENS names. `/ens/list`, `/ens/registration/:id` and `/ens/reverse/:address` come before `/ens/:name`. */
export const ensOperations = [
  bindOperation(ensContract.listEnsNames, listEnsNames),
  bindOperation(ensContract.checkEnsName, checkEnsName),
  bindOperation(ensContract.registerEnsName, registerEnsName),
  bindOperation(ensContract.getEnsRegistration, getEnsRegistration),
  bindOperation(ensContract.reverseEnsName, reverseEnsName),
  bindOperation(ensContract.resolveEnsName, resolveEnsName),
] as const
