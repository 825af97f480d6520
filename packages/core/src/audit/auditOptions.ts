import type { AuditSigner } from './auditSigner.js'
import type { RecordedSpendsMemory } from './recordedSpends.js'

/** The trail's settings (`createAgentWallet({ audit })`); absent in `CoreOptions`: no trail. */
export type AuditOptions = {
  signer: AuditSigner
  /** A checkpoint is signed once this many entries follow the last one (and at close). Default 100. */
  checkpointEvery: number
  /** Each wallet's last recorded spends, so a decision records only what changed since. */
  spends: RecordedSpendsMemory
}
