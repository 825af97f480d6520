import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  auditSigner,
  exportAudit,
  memoryStorage,
  rulesPolicyEngine,
  type Storage,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { copyTrail, rechain } from '../helpers/forgeTrail.js'

// A forger holds the database or an export, not the audit key: it can rewrite, renumber, rehash and
// rechain any entry, and copy or drop checkpoints, but sign none.
const engine = rulesPolicyEngine()
const admin = { tenantId: 'default', id: 'forgery-admin', role: 'admin' as const }
const auditKey = 'b2'.repeat(32)
const publicKey = auditSigner(Buffer.from(auditKey, 'hex')).publicKey

let devnet: Devnet
let storage: Storage
let aw: AgentWallet
let lines: AuditLine[]

beforeAll(async () => {
  devnet = await startDevnet()
  storage = memoryStorage()
  aw = await agentWalletOn(devnet, { storage, audit: { key: auditKey, checkpointEvery: 4 } })
  const wallet = await fundedWallet(aw, devnet, '5')
  await aw.updatePolicyRules({
    wallet: wallet.address,
    rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
  })
  for (const value of ['0.1', '0.2', '0.3'])
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value })).status).toBe('submitted')
  await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '2' })).rejects.toMatchObject({
    code: 'policy_blocked',
  })
  lines = []
  for await (const line of auditLines(storage, 'default')) lines.push(line)
}, 60_000)
afterAll(async () => {
  await aw.close()
  await devnet.close()
})

type Decision = {
  engine: string
  context: { rules: unknown[] }
  decision: { decision: string; ruleId?: string }
}

/** The denial made an allow, its recorded rules emptied so that a re-run of the rules agrees. */
function allowTheDenial(edited: AuditLine[]): number {
  const index = edited.findIndex(
    (line) => line.kind === 'policy.decision' && (line.payload as Decision).decision.decision === 'deny',
  )
  expect(index).toBeGreaterThan(0)
  const payload = edited[index]!.payload as Decision
  payload.decision = { ...payload.decision, decision: 'allow', ruleId: undefined }
  delete payload.decision.ruleId
  payload.context.rules = []
  return index
}

const codes = (result: { problems: { code: string }[] }) => result.problems.map((problem) => problem.code)

describe('the audit trail against a forger without the audit key', () => {
  it('verifies as written, with the key, every entry covered by a signed checkpoint', async () => {
    // The trail as the server keeps it ends with entries after its last checkpoint: the export seals it.
    const exported: AuditLine[] = []
    for await (const line of exportAudit(aw.context, admin)) exported.push(JSON.parse(line) as AuditLine)
    const last = exported.at(-1)!
    expect(last.kind).toBe('audit.checkpoint')
    expect((last.payload as { upto: number }).upto).toBe(last.seq - 1)
    const result = verifyAuditTrail(exported, { engine, publicKey })
    expect(result.problems).toEqual([])
    expect(result).toMatchObject({ ok: true, unsealed: 0, keyChecked: true, decisionsNotRerun: 0 })
    expect(result.decisionsRerun).toBeGreaterThanOrEqual(4)
  })

  it('fails closed on a trail stripped of its checkpoints, renumbered, with a denial made an allow', () => {
    const forged = copyTrail(lines).filter((line) => line.kind !== 'audit.checkpoint')
    const at = allowTheDenial(forged)
    const rechained = rechain(forged)
    // Without the key nothing inside the trail can tell: every hash, seq, chain value and re-run agrees.
    expect(verifyAuditTrail(rechained, { engine }).problems).toEqual([])
    const result = verifyAuditTrail(rechained, { engine, publicKey })
    expect(result.ok).toBe(false)
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'unsealed',
        message: expect.stringContaining(`seq 1–${rechained.length}`),
      }),
    ])
    expect(result.unsealed).toBe(rechained.length)
    expect(at).toBeLessThan(rechained.length)
    // Allowed explicitly, the unsigned entries are counted, not vouched for.
    const allowed = verifyAuditTrail(rechained, { engine, publicKey, allowUnsignedTail: true })
    expect(allowed).toMatchObject({ ok: true, unsealed: rechained.length, checkpoints: 0 })
  })

  it('reports a decision whose engine was renamed, never skipping its re-run', () => {
    const forged = copyTrail(lines)
    const at = allowTheDenial(forged)
    const payload = forged[at]!.payload as Decision
    payload.engine = 'rules-x'
    payload.context.rules = [{ type: 'max_per_tx', asset: 'native', max: '1' }]
    const result = verifyAuditTrail(rechain(forged), { engine })
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        position: at + 1,
        code: 'decision_engine',
        message: expect.stringContaining('rules-x'),
      }),
    )
  })

  it('reports an old checkpoint copied to the end, and one copied in place of the ones it hides', () => {
    const checkpoints = lines.filter((line) => line.kind === 'audit.checkpoint')
    expect(checkpoints.length).toBeGreaterThanOrEqual(2)
    const [first] = checkpoints
    // Appended after the real ones: it appears twice, behind the last one.
    const appended = rechain([...copyTrail(lines), copyTrail([first!])[0]!])
    const repeated = verifyAuditTrail(appended, { engine, publicKey })
    expect(codes(repeated)).toContain('checkpoint_repeated')
    expect(repeated.problems.at(0)).toMatchObject({ position: appended.length })
    // The later checkpoints dropped and the first one copied to the end: what follows it is covered by none.
    const firstAt = lines.indexOf(first!)
    const hidden = copyTrail(lines).filter(
      (line, index) => index <= firstAt || line.kind !== 'audit.checkpoint',
    )
    const covering = rechain([...hidden, copyTrail([first!])[0]!])
    const uncovered = verifyAuditTrail(covering, { engine, publicKey })
    expect(codes(uncovered)).toEqual(expect.arrayContaining(['checkpoint_repeated', 'unsealed']))
  })
})
