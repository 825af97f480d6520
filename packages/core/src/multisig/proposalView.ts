import { formatUnits } from 'viem'
import type { z } from 'zod'
import type { safeProposalSchema } from './multisigSchemas.js'
import type { SafeProposalRecord } from './multisigTypes.js'

/** A proposal as the API shows it: value as a decimal string, signatures without their bytes. */
export type SafeProposalView = z.infer<typeof safeProposalSchema>

/** The public view of a stored proposal. */
export function toProposalView(record: SafeProposalRecord): SafeProposalView {
  return {
    id: record.id,
    safeAddress: record.safeAddress,
    chain: record.chain,
    safeTxHash: record.safeTxHash,
    status: record.status,
    to: record.tx.to,
    value: formatUnits(BigInt(record.tx.value), 18),
    valueRaw: record.tx.value,
    data: record.tx.data,
    operation: record.tx.operation,
    nonce: record.tx.nonce,
    proposer: record.proposer,
    confirmations: record.signatures.map(({ owner, source, addedAt }) => ({ owner, source, addedAt })),
    transactionId: record.status === 'pending' ? null : (record.transactionId ?? null),
    executionHash:
      record.status === 'executed' || record.status === 'failed' ? (record.executionHash ?? null) : null,
    error:
      record.status === 'failed'
        ? { code: 'execution_failed', message: record.reason }
        : record.status === 'pending'
          ? (record.lastError ?? null)
          : null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}
