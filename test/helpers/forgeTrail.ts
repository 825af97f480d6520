import { type AuditLine, genesisHash, hashAuditBody, nextChainHash } from '@agentwallet/core'

/** A deep copy of a trail, for a forger to edit. */
export const copyTrail = (from: readonly AuditLine[]): AuditLine[] =>
  JSON.parse(JSON.stringify(from)) as AuditLine[]

/** What a forger without the audit key does after editing: seqs renumbered from 1, each hash and chain value recomputed. */
export function rechain(edited: AuditLine[]): AuditLine[] {
  let chainHash = genesisHash
  return edited.map((line, index) => {
    const { seq: _seq, hash: _hash, prevHash: _prev, chainHash: _chain, ...body } = line
    const hash = hashAuditBody(body)
    const next = {
      ...body,
      seq: index + 1,
      hash,
      prevHash: chainHash,
      chainHash: nextChainHash(chainHash, hash),
    }
    chainHash = next.chainHash
    return next as AuditLine
  })
}
