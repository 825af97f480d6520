import type { AuditSigner } from './auditSigner.js'

/** The trail's settings (`createAgentWallet({ audit })`); absent in `CoreOptions`: no trail. */
export type AuditOptions = {
  signer: AuditSigner
  /** A checkpoint is signed once this many entries follow the last one (and at close). Default 100. */
  checkpointEvery: number
}
