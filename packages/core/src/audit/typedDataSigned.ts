import { hashTypedData, type TypedDataDefinition } from 'viem'
import { toAuditJson } from './auditJson.js'

/** What a `vault.signature` entry says of EIP-712 typed data the vault signed (never the signature's key). */
export type TypedDataSigned = {
  signed: 'typed_data'
  primaryType: string
  /** The EIP-712 domain, in audit JSON. */
  domain: unknown
  /** The EIP-712 digest the key signed. */
  digest: string
}

/**
 * The audit payload of a typed data signature: its primary type, domain and digest.
 * @example appendAudit(ctx, tx, tenantId, { kind: 'vault.signature', subjects, payload: typedDataSigned(typedData) })
 */
export function typedDataSigned(typedData: {
  domain?: unknown
  types: unknown
  primaryType: string
  message: unknown
}): TypedDataSigned {
  return {
    signed: 'typed_data',
    primaryType: typedData.primaryType,
    domain: toAuditJson(typedData.domain ?? {}),
    digest: hashTypedData(typedData as TypedDataDefinition),
  }
}
