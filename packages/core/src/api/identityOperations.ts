import { getIdentity } from '../identity/getIdentity.js'
import { getIdentityRegistration } from '../identity/getIdentityRegistration.js'
import { identityContract } from '../identity/identityContract.js'
import { identitiesOfWallet, listIdentities } from '../identity/listIdentities.js'
import { registerIdentity } from '../identity/registerIdentity.js'
import { bindOperation } from './defineOperation.js'

/** ERC-8004 identities: register, list, by wallet, by agentId (read from chain, with a proof of ownership). */
export const identityOperations = [
  bindOperation(identityContract.registerIdentity, registerIdentity),
  bindOperation(identityContract.listIdentities, listIdentities),
  bindOperation(identityContract.getIdentityRegistration, getIdentityRegistration),
  bindOperation(identityContract.identitiesOfWallet, identitiesOfWallet),
  bindOperation(identityContract.getIdentity, getIdentity),
] as const
