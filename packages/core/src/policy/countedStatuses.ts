import type { TransactionStatus } from '../transactions/types.js'

/** Statuses whose amount counts against spend limits (reserved or spent). */
export const countedStatuses: readonly TransactionStatus[] = [
  'pending_approval',
  'queued',
  'submitted',
  'confirmed',
]
