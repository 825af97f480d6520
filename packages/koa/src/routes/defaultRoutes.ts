import { apiKeyRoutes } from './apiKeyRoutes.js'
import { approvalRoutes } from './approvalRoutes.js'
import type { RouteSpec } from './defineRoute.js'
import { defiRoutes } from './defiRoutes.js'
import { ensRoutes } from './ensRoutes.js'
import { identityRoutes } from './identityRoutes.js'
import { multisigRoutes } from './multisigRoutes.js'
import { policyRoutes } from './policyRoutes.js'
import { transactionRoutes } from './transactionRoutes.js'
import { walletRoutes } from './walletRoutes.js'
import { webhookRoutes } from './webhookRoutes.js'

/**
 * Every resource router, in matching order: fixed paths such as /wallet/list and /wallet/estimate-gas
 * come before /wallet/:address/… (and /ens/list before /ens/:name, inside its router).
 */
export const defaultRoutes: readonly RouteSpec[] = [
  ...walletRoutes,
  ...transactionRoutes,
  ...policyRoutes,
  ...approvalRoutes,
  ...apiKeyRoutes,
  ...identityRoutes,
  ...ensRoutes,
  ...defiRoutes,
  ...multisigRoutes,
  ...webhookRoutes,
]
