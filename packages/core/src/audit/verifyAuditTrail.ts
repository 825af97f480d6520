import { checkTimestampToken, TimestampError, timestampedMessage } from './auditTimestamps.js'
import { auditVerifier, type PendingTimestamp } from './auditVerifier.js'
import type { AuditVerification, VerifyAuditOptions } from './verificationTypes.js'

/**
 * Checks an exported trail with no server, chain or network: each entry's hash, each tenant's seqs
 * (from 1, none missing, in order) and chain values, each checkpoint's signature and the chain value
 * it signs, and re-runs each recorded policy decision with `engine` from its recorded inputs. A
 * checkpoint must cover entries before it only, each checkpoint once (a copy of an old one is a
 * problem); with `publicKey`, an entry no checkpoint signed with that key
 * covers is a problem (fail closed) unless `allowUnsignedTail`. A decision `engine` cannot re-run
 * (another engine's name) is a problem, never a skip. With `anchors` (heads published outside the
 * server), a trail that differs from one, or stops short of it, is a problem.
 * @example const { ok, problems } = verifyAuditTrail(lines, { engine: rulesPolicyEngine() })
 */
export function verifyAuditTrail(
  lines: Iterable<unknown>,
  options: VerifyAuditOptions = {},
): AuditVerification {
  const verifier = auditVerifier(options)
  for (const line of lines) verifier.add(line)
  return verifier.finish()
}

/**
 * `verifyAuditTrail` over lines read as they come (an export read line by line, a data dir page by
 * page), in bounded memory; each RFC 3161 token is checked too (against `timestampCertificates`).
 * @example const result = await verifyAuditStream(readJsonLines(file), { engine, publicKey })
 */
export async function verifyAuditStream(
  lines: AsyncIterable<unknown>,
  options: VerifyAuditOptions = {},
): Promise<AuditVerification> {
  const verifier = auditVerifier(options)
  for await (const line of lines) {
    const pending = verifier.add(line)
    if (pending) verifier.timestampChecked(pending, await tokenProblem(pending, options))
  }
  return verifier.finish()
}

async function tokenProblem(
  pending: PendingTimestamp,
  options: VerifyAuditOptions,
): Promise<string | undefined> {
  const { upto, head, token } = pending.payload
  try {
    await checkTimestampToken(
      String(token),
      timestampedMessage(pending.tenantId, upto, head),
      options.timestampCertificates,
    )
    return undefined
  } catch (error) {
    if (error instanceof TimestampError) return error.message
    throw error
  }
}
