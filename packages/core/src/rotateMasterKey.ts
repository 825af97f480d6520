import { randomUUID } from 'node:crypto'
import { writeAuditEntry } from './audit/appendAudit.js'
import { BaseError, isAgentWalletError } from './errors/baseError.js'
import type { ErrorCode } from './errors/errorCodes.js'
import { defaultTenantId } from './principals/types.js'
import type { RecordOf, Storage } from './storage/types.js'
import { type MasterKeyRotationRecord, masterKeyRotationCollection } from './vault/assertMasterKey.js'
import { rewrapEnvelope } from './vault/envelope.js'
import { keyFingerprint, parseMasterKey } from './vault/masterKey.js'
import { type VaultKeyRow, vaultKeysCollection } from './vault/storageKeyRecordStore.js'
import type { WebhookSubscriptionRecord } from './webhooks/types.js'
import { resealWebhookSecret } from './webhooks/webhookSecret.js'

export type RotateMasterKeyParameters = {
  /** The master key the records are sealed with now (32 bytes, hex or base64). */
  from: Uint8Array | string
  /** The key to seal them with from now on. */
  to: Uint8Array | string
  /** Records read per query (default 200). Each record is still rewritten in its own transaction. */
  batchSize?: number | undefined
}

/** A record that opens with neither key: left as it is, and reported. */
export type RotateMasterKeyFailure = {
  collection: typeof vaultKeysCollection | typeof webhooksCollection
  id: string
  code: ErrorCode
}

export type RotateMasterKeyReturnType = {
  /** `resealed`: moved to the new key by this run; `skipped`: already under it, or HD-derived (nothing sealed). */
  walletKeys: { resealed: number; skipped: number }
  /** `resealed` includes plaintext secrets of records written before sealing, now sealed under the new key. */
  webhookSecrets: { resealed: number; skipped: number }
  failed: RotateMasterKeyFailure[]
  /**
   * Records still under the old key after the pass: written meanwhile by a process that still runs
   * with it. The rotation is then unfinished (stop that process, run again).
   */
  remaining: number
  fromKeyId: string
  toKeyId: string
}

export type RotateMasterKeyErrorType = BaseError

const webhooksCollection = 'webhook_subscriptions'

type Outcome = 'resealed' | 'skipped' | RotateMasterKeyFailure

/**
 * Re-seals every wallet key (`vault_keys`) and webhook signing secret from the master key `from`
 * to `to`. Safe to interrupt and run again: each record is rewritten alone, atomically, under its
 * lock; records already under `to` are skipped; meanwhile every record opens with one of the two
 * keys, and `createAgentWallet` refuses the store until a run completes. Refuses before writing
 * anything (`master_key_mismatch`) when a record is sealed under neither key, e.g. a wrong `from`.
 * A record under `from` that does not open (altered, moved) is reported in `failed`, not rewritten.
 * @example const { walletKeys, webhookSecrets, failed } = await rotateMasterKey(storage, { from: oldKey, to: newKey })
 */
export async function rotateMasterKey(
  storage: Storage,
  { from: fromValue, to: toValue, batchSize = 200 }: RotateMasterKeyParameters,
): Promise<RotateMasterKeyReturnType> {
  const from = parseMasterKey(fromValue)
  const to = parseMasterKey(toValue)
  const fromKeyId = keyFingerprint(from)
  const toKeyId = keyFingerprint(to)
  if (fromKeyId === toKeyId)
    throw new BaseError('validation_failed', 'The new master key must differ from the old one')
  const limit = Math.max(1, Math.floor(batchSize))

  const rotation = await storage.get(masterKeyRotationCollection, 'current')
  if (rotation && rotation.toKeyId !== toKeyId) {
    throw new BaseError(
      'conflict',
      'Another rotation, to a different key, is unfinished: run it again with its keys first',
      { details: { fromKeyId: rotation.fromKeyId, toKeyId: rotation.toKeyId } },
    )
  }
  await assertSealedUnder(storage, [fromKeyId, toKeyId], limit)

  await storage.transaction([masterKeyRotationCollection], async (tx) => {
    if (await tx.get(masterKeyRotationCollection, 'current')) return
    const marker: MasterKeyRotationRecord = {
      id: 'current',
      fromKeyId,
      toKeyId,
      startedAt: new Date().toISOString(),
    }
    await tx.insert(masterKeyRotationCollection, marker)
  })

  const result: RotateMasterKeyReturnType = {
    walletKeys: { resealed: 0, skipped: 0 },
    webhookSecrets: { resealed: 0, skipped: 0 },
    failed: [],
    remaining: 0,
    fromKeyId,
    toKeyId,
  }
  const tally = (counts: { resealed: number; skipped: number }, outcome: Outcome) => {
    if (outcome === 'resealed' || outcome === 'skipped') counts[outcome]++
    else result.failed.push(outcome)
  }

  for await (const row of scan(storage, vaultKeysCollection, limit)) {
    if (!needsRotation(vaultKeyId(row), fromKeyId)) {
      result.walletKeys.skipped++
      continue
    }
    tally(
      result.walletKeys,
      await rewrite(storage, vaultKeysCollection, `${vaultKeysCollection}:${row.id}`, row.id, (current) =>
        needsRotation(vaultKeyId(current), fromKeyId) && current.record.kind === 'envelope'
          ? { ...current, record: rewrapEnvelope(current.record, from, to, current.id) }
          : undefined,
      ),
    )
  }
  for await (const row of scan(storage, webhooksCollection, limit)) {
    if (!needsRotation(webhookKeyId(row), fromKeyId)) {
      result.webhookSecrets.skipped++
      continue
    }
    tally(
      result.webhookSecrets,
      await rewrite(storage, webhooksCollection, `webhook:${row.id}`, row.id, (current) => {
        if (!needsRotation(webhookKeyId(current), fromKeyId)) return undefined
        const { secret: _plaintext, ...rest } = current
        return { ...rest, sealedSecret: resealWebhookSecret(current, from, to) }
      }),
    )
  }

  // A second look finds what a process still running with the old key wrote behind the scan.
  const failed = new Set(result.failed.map((failure) => `${failure.collection}:${failure.id}`))
  for await (const row of scan(storage, vaultKeysCollection, limit))
    if (vaultKeyId(row) === fromKeyId && !failed.has(`${vaultKeysCollection}:${row.id}`)) result.remaining++
  for await (const row of scan(storage, webhooksCollection, limit))
    if (needsRotation(webhookKeyId(row), fromKeyId) && !failed.has(`${webhooksCollection}:${row.id}`))
      result.remaining++
  if (result.remaining === 0)
    await storage.transaction([masterKeyRotationCollection], async (tx) => {
      await tx.delete(masterKeyRotationCollection, 'current')
      // The rotation is the operator's, not a tenant's: it goes in the default tenant's trail.
      writeAuditEntry(
        tx,
        defaultTenantId,
        {
          kind: 'vault.master_key_rotated',
          payload: {
            fromKeyId,
            toKeyId,
            walletKeys: result.walletKeys,
            webhookSecrets: result.webhookSecrets,
          },
        },
        { at: new Date(), id: `aud_${randomUUID().replaceAll('-', '')}` },
      )
    })
  return result
}

/** The fingerprint a vault row is sealed under; undefined for HD records (nothing sealed by a master key). */
const vaultKeyId = (row: VaultKeyRow): string | undefined =>
  row.record.kind === 'envelope' ? row.record.keyId : undefined

/**
 * The fingerprint a subscription's secret is sealed under; `plaintext` for records written before
 * sealing, `none` for one without a secret (reported as failed: nobody can sign for it).
 */
const webhookKeyId = (row: WebhookSubscriptionRecord): string =>
  row.sealedSecret?.keyId ?? (row.secret === undefined ? 'none' : 'plaintext')

const needsRotation = (keyId: string | undefined, fromKeyId: string) =>
  keyId === fromKeyId || keyId === 'plaintext' || keyId === 'none'

/**
 * Rewrites one record under its lock, re-read inside the transaction (another run may have done it).
 * A record that does not open under the old key is reported, not written.
 */
async function rewrite<C extends RotateMasterKeyFailure['collection']>(
  storage: Storage,
  collection: C,
  lockKey: string,
  id: string,
  rotated: (current: RecordOf<C>) => RecordOf<C> | undefined,
): Promise<Outcome> {
  try {
    return await storage.transaction([lockKey], async (tx) => {
      const current = await tx.get(collection, id)
      const next = current && rotated(current)
      if (!next) return 'skipped'
      await tx.put(collection, next)
      return 'resealed'
    })
  } catch (error) {
    if (
      isAgentWalletError(error, 'key_decryption_failed') ||
      isAgentWalletError(error, 'master_key_mismatch')
    )
      return { collection, id, code: error.code }
    throw error
  }
}

/** Refuses, before any write, a store holding records sealed under neither key (a wrong old key, say). */
async function assertSealedUnder(storage: Storage, keyIds: string[], limit: number): Promise<void> {
  const known = new Set([...keyIds, 'plaintext', 'none', undefined])
  const strangers: { collection: string; id: string; keyId: string }[] = []
  let count = 0
  const note = (collection: string, id: string, keyId: string | undefined) => {
    if (known.has(keyId)) return
    count++
    if (strangers.length < 10) strangers.push({ collection, id, keyId: keyId! })
  }
  for await (const row of scan(storage, vaultKeysCollection, limit))
    note(vaultKeysCollection, row.id, vaultKeyId(row))
  for await (const row of scan(storage, webhooksCollection, limit))
    note(webhooksCollection, row.id, webhookKeyId(row))
  if (count > 0) {
    throw new BaseError(
      'master_key_mismatch',
      `${count} record(s) are sealed under neither the old nor the new master key: is the old key the one the server runs with? Nothing was changed`,
      { details: { fromKeyId: keyIds[0], toKeyId: keyIds[1], count, records: strangers } },
    )
  }
}

/**
 * Every record of `collection`, in id order, a page at a time. Pages continue after the last id seen
 * (not at an offset), so records inserted or deleted meanwhile shift nothing.
 */
async function* scan<C extends string>(
  storage: Storage,
  collection: C,
  limit: number,
): AsyncGenerator<RecordOf<C>> {
  let after: string | undefined
  for (;;) {
    const page = await storage.query(collection, {
      orderBy: 'id',
      limit: limit + 1,
      ...(after === undefined ? {} : { range: { field: 'id', gte: after } }),
    })
    const fresh = page.filter((row) => row.id !== after).slice(0, limit)
    for (const row of fresh) yield row
    if (fresh.length < limit) return
    after = fresh[fresh.length - 1]!.id
  }
}
