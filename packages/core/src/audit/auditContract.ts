import { defineContracts } from '../schemas/defineContract.js'
import { listAuditAnswerSchema, listAuditSchema } from './auditSchemas.js'

/** The audit trail, read (its export streams at the HTTP edge: `GET /audit/export`). (contracts: what each operation takes, answers and may fail with) */
export const auditContract = defineContracts({
  listAudit: {
    summary:
      'The tenant’s audit trail, oldest first, by time, wallet, approval and kind (approvers and admins)',
    description:
      'A page of the tenant’s hash-chained audit trail: policy decisions with what the engine saw, approvals, rule changes, keys, wallets, tenants, webhook subscriptions, vault signatures and signed checkpoints. Filter by time (`from`, `to`), `walletId`, `approvalId` and `kind`; pass `nextCursor` as `cursor` for the next page.',
    input: listAuditSchema,
    output: listAuditAnswerSchema,
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/audit', status: 200 },
    errors: [],
    tool: false,
  },
})
