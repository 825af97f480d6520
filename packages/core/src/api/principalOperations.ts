import { createApiKey } from '../principals/createApiKey.js'
import { createTenant } from '../principals/createTenant.js'
import { listApiKeys } from '../principals/listApiKeys.js'
import { listKeyNames } from '../principals/listKeyNames.js'
import { principalContract } from '../principals/principalContract.js'
import { revokeApiKey } from '../principals/revokeApiKey.js'
import { whoAmI } from '../principals/whoAmI.js'
import { bindOperation } from './defineOperation.js'

/** The calling key, API keys of the caller's tenant, and tenants (root admin). */
export const principalOperations = [
  bindOperation(principalContract.whoAmI, whoAmI),
  bindOperation(principalContract.createApiKey, createApiKey),
  bindOperation(principalContract.listApiKeys, listApiKeys),
  bindOperation(principalContract.listKeyNames, listKeyNames),
  bindOperation(principalContract.revokeApiKey, revokeApiKey),
  bindOperation(principalContract.createTenant, createTenant),
] as const
