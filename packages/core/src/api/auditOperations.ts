import { auditContract } from '../audit/auditContract.js'
import { listAudit } from '../audit/listAudit.js'
import { bindOperation } from './defineOperation.js'

/** The audit trail, read (its export streams at the HTTP edge: `GET /audit/export`). */
export const auditOperations = [bindOperation(auditContract.listAudit, listAudit)] as const
