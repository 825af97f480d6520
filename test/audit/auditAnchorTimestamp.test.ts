import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  checkTimestampToken,
  memoryStorage,
  requestTimestamp,
  rulesPolicyEngine,
  type Storage,
  type TimestampPayload,
  timestampedMessage,
  verifyAuditStream,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { copyTrail, rechain } from '../helpers/forgeTrail.js'
import { type LocalTsa, startLocalTsa } from '../helpers/localTsa.js'

// The second anchor: an RFC 3161 authority timestamps each checkpoint's head. No public authority is
// reachable here: the authority is a local one built with pkijs (test/helpers/localTsa.ts).
const engine = rulesPolicyEngine()
let tsa: LocalTsa
let devnet: Devnet
let storage: Storage
let aw: AgentWallet
let lines: AuditLine[]

beforeAll(async () => {
  tsa = await startLocalTsa()
  devnet = await startDevnet()
  storage = memoryStorage()
  aw = await agentWalletOn(devnet, { storage, audit: { checkpointEvery: 5, timestamp: { url: tsa.url } } })
  const wallet = await fundedWallet(aw, devnet, '5')
  for (let i = 0; i < 6; i++)
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })).status).toBe(
      'submitted',
    )
  await aw.close()
  lines = []
  for await (const line of auditLines(storage, 'default')) lines.push(line)
}, 60_000)
afterAll(async () => {
  await devnet?.close()
  await tsa?.close()
})

async function* streamOf(trail: readonly AuditLine[]) {
  yield* trail
}
const verified = (trail: readonly AuditLine[], certificates = [tsa.certificate]) =>
  verifyAuditStream(streamOf(trail), { engine, timestampCertificates: certificates })
const codes = (result: { problems: { code: string }[] }) => result.problems.map((problem) => problem.code)
const stamps = (trail: readonly AuditLine[]) => trail.filter((line) => line.kind === 'audit.timestamp')

describe('checkpoint heads timestamped by an RFC 3161 authority', () => {
  it('records a token per checkpoint and at close, each naming its head and signed by the authority', async () => {
    expect(stamps(lines).length).toBeGreaterThanOrEqual(2)
    expect(tsa.requests).toBe(stamps(lines).length)
    const result = await verified(lines)
    expect(result.problems).toEqual([])
    expect(result).toMatchObject({
      ok: true,
      timestampsChecked: stamps(lines).length,
      timestampsNotChecked: 0,
    })
    // Synchronously, the tokens' signatures are counted as not checked, never passed over silently.
    expect(verifyAuditTrail(lines, { engine })).toMatchObject({
      timestampsChecked: 0,
      timestampsNotChecked: stamps(lines).length,
    })
  })

  it('reports a trail rewritten below a timestamped head, and a token moved onto the rewritten head', async () => {
    const forged = copyTrail(lines).filter((line) => line.kind !== 'audit.checkpoint')
    const created = forged.find((line) => line.kind === 'wallet.created')!
    created.payload = { ...(created.payload as object), name: 'someone-else' }
    const first = stamps(lines)[0]!.payload as TimestampPayload
    // Renumbered without checkpoints, each token's `upto` moved to where its head now sits.
    const rechained = rechain(forged)
    for (const line of rechained.filter((l) => l.kind === 'audit.timestamp')) {
      const payload = line.payload as TimestampPayload
      payload.upto = rechained.indexOf(line)
    }
    const moved = rechain(rechained)
    expect(codes(await verified(moved))).toContain('timestamp_head')
    // The forger also writes the new head into each timestamp entry, one by one (each edit moves the chain after it).
    let rewritten = moved
    for (const at of moved.flatMap((line, index) => (line.kind === 'audit.timestamp' ? [index] : []))) {
      const payload = rewritten[at]!.payload as TimestampPayload
      payload.head = rewritten[payload.upto - 1]!.chainHash
      rewritten = rechain(rewritten)
    }
    const result = await verified(rewritten)
    expect(codes(result)).toContain('timestamp_invalid')
    expect(codes(result)).not.toContain('timestamp_head')
    expect(first.head).not.toBe((stamps(rewritten)[0]!.payload as TimestampPayload).head)
  })

  it('reports a token from an authority other than the one pinned', async () => {
    const other = await startLocalTsa('Forger TSA')
    try {
      const forged = copyTrail(lines)
      const stamp = stamps(forged)[0]!
      const payload = stamp.payload as TimestampPayload
      payload.token = await requestTimestamp(
        other.url,
        timestampedMessage('default', payload.upto, payload.head),
      )
      const rechained = rechain(forged)
      const result = await verified(rechained)
      expect(result.problems).toContainEqual(
        expect.objectContaining({
          code: 'timestamp_invalid',
          message: expect.stringContaining('other than the authority'),
        }),
      )
      // Its signature is genuine: only the pinned certificate tells the authorities apart.
      expect(codes(await verified(rechained, []))).not.toContain('timestamp_invalid')
      await expect(
        checkTimestampToken(payload.token, timestampedMessage('default', payload.upto, payload.head), [
          tsa.certificate,
        ]),
      ).rejects.toMatchObject({ name: 'TimestampError' })
    } finally {
      await other.close()
    }
  })
})
