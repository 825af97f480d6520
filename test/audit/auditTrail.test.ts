import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  auditSigner,
  hashAuditBody,
  listAudit,
  memoryStorage,
  rulesPolicyEngine,
  type Storage,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from '../../packages/postgres/test/testDatabase.js'
import {
  agentWalletOn,
  approver,
  freshAddress,
  fundedWallet,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'

const engine = rulesPolicyEngine()
const auditKey = 'a1'.repeat(32)

let devnet: Devnet
const schemas = testSchemas()
const dirs: string[] = []
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
  await schemas.cleanup()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

type Backend = {
  name: string
  open(): Promise<Storage>
  /** Rewrites one stored entry's JSON, as someone with the database would; returns the storage to read on. */
  tamper?(storage: Storage, seq: number, edit: (data: Record<string, unknown>) => void): Promise<Storage>
}

let sqlitePath = ''
const backends: Backend[] = [
  { name: 'memory', open: async () => memoryStorage() },
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'aw-audit-'))
      dirs.push(dir)
      sqlitePath = join(dir, 'aw.db')
      return sqliteStorage({ path: sqlitePath })
    },
    async tamper(storage, seq, edit) {
      await storage.close()
      // better-sqlite3 is the sqlite package's dependency: a second connection, as an intruder's.
      const Database = createRequire(join(process.cwd(), 'packages/sqlite/package.json'))(
        'better-sqlite3',
      ) as new (
        path: string,
      ) => {
        prepare(sql: string): { get(...args: unknown[]): unknown; run(...args: unknown[]): unknown }
        close(): void
      }
      const db = new Database(sqlitePath)
      try {
        const row = db
          .prepare('SELECT data FROM events WHERE stream = ? AND seq = ?')
          .get('audit:default', seq) as { data: string }
        const data = JSON.parse(row.data) as Record<string, unknown>
        edit(data)
        db.prepare('UPDATE events SET data = ? WHERE stream = ? AND seq = ?').run(
          JSON.stringify(data),
          'audit:default',
          seq,
        )
      } finally {
        db.close()
      }
      return sqliteStorage({ path: sqlitePath })
    },
  },
  {
    name: 'postgres',
    open: () => schemas.storage(),
    async tamper(storage, seq, edit) {
      const schema = (storage as unknown as { schema: string }).schema
      const pg = createRequire(join(process.cwd(), 'packages/postgres/package.json'))('pg') as {
        Client: new (config: {
          connectionString: string
        }) => {
          connect(): Promise<void>
          query<R>(sql: string, values: unknown[]): Promise<{ rows: R[] }>
          end(): Promise<void>
        }
      }
      const client = new pg.Client({ connectionString: testUrl })
      await client.connect()
      try {
        const { rows } = await client.query<{ data: Record<string, unknown> }>(
          `SELECT data FROM "${schema}".events WHERE stream = $1 AND seq = $2`,
          ['audit:default', seq],
        )
        const data = rows[0]!.data
        edit(data)
        await client.query(`UPDATE "${schema}".events SET data = $3::jsonb WHERE stream = $1 AND seq = $2`, [
          'audit:default',
          seq,
          JSON.stringify(data),
        ])
      } finally {
        await client.end()
      }
      return storage
    },
  },
]

async function exported(storage: Storage): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(storage, 'default')) lines.push(line)
  return lines
}

/** A copy of the lines (JSON round trip, as a file would carry them). */
const copy = (lines: readonly AuditLine[]): AuditLine[] => JSON.parse(JSON.stringify(lines)) as AuditLine[]

describe.each(backends)('the audit trail on $name', (backend) => {
  let storage: Storage
  let lines: AuditLine[]
  const secrets: string[] = []

  beforeAll(async () => {
    storage = await backend.open()
    const aw: AgentWallet = await agentWalletOn(devnet, {
      storage,
      masterKey: '3c'.repeat(32),
      audit: { key: auditKey, checkpointEvery: 4 },
      webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
    })
    try {
      const wallet = await fundedWallet(aw, devnet, '5')
      await aw.updatePolicyRules({
        wallet: wallet.address,
        rules: [
          { type: 'max_per_tx', asset: 'native', max: '1' },
          { type: 'require_approval', asset: 'native', above: '0.5' },
        ],
      })
      expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })).status).toBe(
        'submitted',
      )
      await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '2' })).rejects.toMatchObject(
        {
          code: 'policy_blocked',
        },
      )
      const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
      expect(paused.status).toBe('pending_approval')
      await aw.as(approver).approve({ approvalId: (paused as { approval: { id: string } }).approval.id })
      const { key, apiKey } = await aw.createApiKey({ name: 'ops', role: 'agent' })
      secrets.push(key)
      await aw.revokeApiKey({ keyId: apiKey.id })
      const privateKey = generatePrivateKey()
      secrets.push(privateKey, privateKey.slice(2))
      await aw.importWallet({ privateKey, agentName: 'imported' })
      const { secret } = await aw.subscribeWebhook({
        url: 'http://127.0.0.1:9/hook',
        events: ['wallet.created'],
      })
      secrets.push(secret)
    } finally {
      await aw.close()
    }
    lines = await exported(storage)
  }, 60_000)
  afterAll(async () => {
    await storage.close()
  })

  it('selects entries by wallet, approval, kind and time as the trail filtered does (GET /audit, through the index)', async () => {
    const list = async (input: Record<string, string>) =>
      (await listAudit({ storage }, { tenantId: 'default' }, { limit: 500, ...input })).entries.map(
        (e) => e.seq,
      )
    const seqsOf = (keep: (line: AuditLine) => boolean) => lines.filter(keep).map((line) => line.seq)
    const walletId = lines.find((line) => line.kind === 'policy.rules_changed')!.subjects.walletId!
    const approvalId = lines.find((line) => line.kind === 'approval.resolved')!.subjects.approvalId!
    expect(await list({ walletId })).toEqual(seqsOf((line) => line.subjects.walletId === walletId))
    expect(await list({ approvalId })).toEqual(seqsOf((line) => line.subjects.approvalId === approvalId))
    expect(await list({ kind: 'vault.signature' })).toEqual(seqsOf((line) => line.kind === 'vault.signature'))
    expect(await list({ walletId, kind: 'policy.decision' })).toEqual(
      seqsOf((line) => line.subjects.walletId === walletId && line.kind === 'policy.decision'),
    )
    const from = lines[3]!.at
    const to = lines.at(-3)!.at
    expect(await list({ from, to })).toEqual(seqsOf((line) => line.at >= from && line.at < to))
    expect(await list({ walletId: 'wal_none' })).toEqual([])
  })

  it('records decisions, approvals, rules, keys, wallets and signatures, and verifies', () => {
    const kinds = new Set(lines.map((line) => line.kind))
    for (const kind of [
      'policy.decision',
      'approval.resolved',
      'policy.rules_changed',
      'api_key.created',
      'api_key.revoked',
      'wallet.created',
      'wallet.imported',
      'vault.signature',
      'audit.checkpoint',
    ])
      expect(kinds).toContain(kind)
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index + 1))
    const result = verifyAuditTrail(lines, {
      engine,
      publicKey: auditSigner(Buffer.from(auditKey, 'hex')).publicKey,
    })
    expect(result.problems).toEqual([])
    expect(result.ok).toBe(true)
    // Allowed, denied, paused, and the re-judgement at approval.
    expect(result.decisionsRerun).toBe(4)
    // The last checkpoint, at close, covers every entry before it (and its own entry is its signature).
    expect(lines.at(-1)!.kind).toBe('audit.checkpoint')
    expect(result.unsealed).toBe(0)
  })

  it('holds no secret: no API key, no private key, no webhook secret', () => {
    const text = JSON.stringify(lines)
    expect(secrets).toHaveLength(4)
    for (const secret of secrets) expect(text).not.toContain(secret)
  })

  it('reports a changed entry with its position', () => {
    const changed = copy(lines)
    const target = changed.findIndex((line) => line.kind === 'wallet.created')
    ;(changed[target]!.payload as { agentName: string }).agentName = 'someone else'
    const { ok, problems } = verifyAuditTrail(changed, { engine })
    expect(ok).toBe(false)
    expect(problems).toContainEqual(expect.objectContaining({ position: target + 1, code: 'hash_mismatch' }))
  })

  it('reports a dropped entry where it was', () => {
    const dropped = copy(lines)
    dropped.splice(5, 1)
    const { problems } = verifyAuditTrail(dropped, { engine })
    expect(problems).toContainEqual(expect.objectContaining({ position: 6, seq: 7, code: 'seq_gap' }))
  })

  it('reports two entries swapped', () => {
    const swapped = copy(lines)
    ;[swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!]
    const { problems } = verifyAuditTrail(swapped, { engine })
    expect(problems).toContainEqual(expect.objectContaining({ position: 4, code: 'seq_gap' }))
    expect(problems).toContainEqual(expect.objectContaining({ position: 5, code: 'seq_order' }))
  })

  it('reports a decision altered from deny to allow, even rehashed and rechained', () => {
    const altered = copy(lines)
    const target = altered.findIndex(
      (line) =>
        line.kind === 'policy.decision' &&
        (line.payload as { decision: { decision: string } }).decision.decision === 'deny',
    )
    expect(target).toBeGreaterThanOrEqual(0)
    const line = altered[target]!
    ;(line.payload as { decision: { decision: string } }).decision.decision = 'allow'
    const { seq: _seq, hash: _hash, prevHash: _prev, chainHash: _chain, ...body } = line
    line.hash = hashAuditBody(body)
    delete (line as Partial<AuditLine>).prevHash
    const { problems } = verifyAuditTrail(altered, { engine })
    expect(problems).toContainEqual(
      expect.objectContaining({
        position: target + 1,
        code: 'decision_mismatch',
        message: expect.stringContaining('recorded allow, rules give deny'),
      }),
    )
    // The rewritten hash also moves the chain away from what the next checkpoint signed.
    expect(problems.map((problem) => problem.code)).toContain('checkpoint_head')
  })

  it.runIf(backend.tamper !== undefined)(
    'reports a row changed in the database, with its position',
    async () => {
      const target = lines.find((line) => line.kind === 'policy.rules_changed')!
      storage = await backend.tamper!(storage, target.seq, (data) => {
        ;(data.payload as { rules: unknown[] }).rules = []
      })
      const { problems } = verifyAuditTrail(await exported(storage), { engine })
      expect(problems).toEqual([expect.objectContaining({ position: target.seq, code: 'hash_mismatch' })])
    },
  )
})
