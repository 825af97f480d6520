import { allowanceOperations } from './allowanceOperations.js'
import { approvalOperations } from './approvalOperations.js'
import { auditOperations } from './auditOperations.js'
import type { OperationDeclaration } from './defineOperation.js'
import { defiOperations } from './defiOperations.js'
import { devnetOperations } from './devnetOperations.js'
import { ensOperations } from './ensOperations.js'
import { identityOperations } from './identityOperations.js'
import { multisigOperations } from './multisigOperations.js'
import { paymentOperations } from './paymentOperations.js'
import { policyOperations } from './policyOperations.js'
import { principalOperations } from './principalOperations.js'
import { screeningOperations } from './screeningOperations.js'
import { transactionOperations } from './transactionOperations.js'
import { walletOperations } from './walletOperations.js'
import { webhookOperations } from './webhookOperations.js'

/**
 * Every operation of the API, declared once, in HTTP matching order (fixed paths such as
 * `/wallet/list` before `/wallet/:wallet`). The session, the HTTP routes, the OpenAPI document,
 * the client and the agent tools are derived from this list.
 */
export const operationList = [
  ...walletOperations,
  ...transactionOperations,
  ...policyOperations,
  ...approvalOperations,
  ...principalOperations,
  ...webhookOperations,
  ...identityOperations,
  ...ensOperations,
  ...defiOperations,
  ...allowanceOperations,
  ...multisigOperations,
  ...paymentOperations,
  ...devnetOperations,
  ...auditOperations,
  ...screeningOperations,
] as const

export type Operation = (typeof operationList)[number]
export type OperationName = Operation['name']
/** The declaration of the operation named `N`. */
export type OperationNamed<N extends OperationName> = Extract<Operation, { name: N }>

/** The operations by name. */
export const operations = Object.fromEntries(
  operationList.map((operation) => [operation.name, operation]),
) as {
  [N in OperationName]: OperationNamed<N>
}

// Every entry must be a whole declaration (the type says so); this keeps the list's element type honest.
operationList satisfies readonly OperationDeclaration[]
