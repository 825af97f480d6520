import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  auditSigner,
  type ChainAnchor,
  decodeAnchorData,
  type ExternalAnchor,
  encodeAnchorData,
  memoryStorage,
  readChainAnchors,
  rulesPolicyEngine,
  type Storage,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet, DevnetServer } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'
import { copyTrail, rechain } from '../helpers/forgeTrail.js'

// The operator anchors each checkpoint's head on the devnet from an anchor account it funds; a forger
// holding the database (not the audit key, not the chain) cuts or rewrites the trail below it.
const engine = rulesPolicyEngine()
const auditKey = 'c3'.repeat(32)
const publicKey = auditSigner(Buffer.from(auditKey, 'hex')).publicKey
const anchorKey = generatePrivateKey()
const anchorAddress = privateKeyToAccount(anchorKey).address

let devnet: Devnet
let server: DevnetServer
let storage: Storage
let aw: AgentWallet
let lines: AuditLine[]
let onChain: ChainAnchor[]

beforeAll(async () => {
  devnet = await startDevnet()
  storage = memoryStorage()
  aw = await agentWalletOn(devnet, {
    storage,
    audit: { key: auditKey, checkpointEvery: 6, anchor: { wallet: anchorAddress } },
  })
  await aw.importWallet({ privateKey: anchorKey, agentName: 'audit-anchor' })
  await devnet.faucet(anchorAddress, parseEther('1'))
  const wallet = await fundedWallet(aw, devnet, '5')
  for (let i = 0; i < 12; i++)
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })).status).toBe(
      'submitted',
    )
  await aw.close()
  lines = []
  for await (const line of auditLines(storage, 'default')) lines.push(line)
  server = await devnet.serve()
  onChain = await readChainAnchors({ rpc: server.url, address: anchorAddress })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await devnet?.close()
})

const asAnchors = (anchors: readonly ChainAnchor[]): ExternalAnchor[] =>
  anchors.map((anchor) => ({ ...anchor, source: `anchor tx ${anchor.transactionHash}` }))
const codes = (result: { problems: { code: string }[] }) => result.problems.map((problem) => problem.code)

describe('checkpoint heads anchored on the chain', () => {
  it('sends each anchor through the money path as a self-send, tracked to confirmation', async () => {
    const [anchorWallet] = await storage.query('wallets', { where: { address: anchorAddress } })
    const sent = await storage.query('transactions', { where: { walletId: anchorWallet!.id } })
    // Two periodic checkpoints at least, and the head at close.
    expect(sent.length).toBeGreaterThanOrEqual(3)
    for (const record of sent) {
      expect(record.call).toMatchObject({ to: anchorAddress, value: '0' })
      expect(decodeAnchorData(record.call!.data ?? '0x')).toBeDefined()
    }
    // The anchors sent before close were tracked by the tracker like any transaction.
    expect(sent.filter((record) => record.status === 'confirmed').length).toBeGreaterThanOrEqual(2)
    expect(onChain.map((anchor) => anchor.transactionHash).sort()).toEqual(
      sent.map((record) => record.hash).sort(),
    )
  })

  it('reads every anchor back from the chain, and the trail as kept reaches and matches each', () => {
    expect(onChain.length).toBeGreaterThanOrEqual(3)
    const result = verifyAuditTrail(lines, { engine, publicKey, anchors: asAnchors(onChain) })
    expect(result.problems).toEqual([])
    expect(result).toMatchObject({ ok: true, anchorsChecked: onChain.length })
    // The head at close is anchored: all but the anchor's own send (its decision, signature) and the last checkpoint.
    expect(result.anchoredUpto.default).toBe(lines.length - 3)
  })

  it('reports, from the chain alone, a trail cut back to an earlier checkpoint', () => {
    const checkpoints = lines.filter((line) => line.kind === 'audit.checkpoint')
    const first = checkpoints[0]!
    const cut = lines.slice(0, lines.indexOf(first) + 1)
    // Today's verify, even with the key, cannot tell: every entry is covered by the checkpoint it ends with.
    expect(verifyAuditTrail(cut, { engine, publicKey })).toMatchObject({ ok: true, problems: [] })
    // No audit key given: the anchors on the chain show what is missing.
    const result = verifyAuditTrail(cut, { engine, anchors: asAnchors(onChain) })
    expect(result.ok).toBe(false)
    expect(new Set(codes(result))).toEqual(new Set(['anchor_beyond']))
    expect(result.problems.length).toBe(onChain.filter((anchor) => anchor.upto > first.seq).length)
    expect(result.problems[0]!.message).toContain(`stops at seq ${first.seq}`)
  })

  it('reports a trail cut below the shutdown checkpoint, back to the last checkpoint before it', () => {
    // The trail ends: …, checkpoint, the shutdown checkpoint (anchored at close), the anchor's send, a last checkpoint.
    const checkpoints = lines.filter((line) => line.kind === 'audit.checkpoint')
    const shutdown = checkpoints.at(-2)!
    const before = checkpoints.at(-3)!
    expect(onChain.map((anchor) => anchor.upto)).toContain(shutdown.seq)
    const cut = lines.slice(0, lines.indexOf(before) + 1)
    expect(verifyAuditTrail(cut, { engine, publicKey })).toMatchObject({ ok: true, problems: [] })
    const result = verifyAuditTrail(cut, { engine, publicKey, anchors: asAnchors(onChain) })
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'anchor_beyond',
        message: expect.stringContaining(`stops at seq ${before.seq}, short of seq ${shutdown.seq}`),
      }),
    ])
  })

  it('reports a rewritten trail whose chain differs from an anchored head, without the key', () => {
    // Checkpoints stripped, an entry changed, everything renumbered and rechained: consistent inside.
    const forged = copyTrail(lines).filter((line) => line.kind !== 'audit.checkpoint')
    const wallet = forged.find((line) => line.kind === 'wallet.created')!
    wallet.payload = { ...(wallet.payload as object), name: 'someone-else' }
    const rechained = rechain(forged)
    expect(verifyAuditTrail(rechained, { engine }).problems).toEqual([])
    const result = verifyAuditTrail(rechained, { engine, anchors: asAnchors(onChain) })
    expect(codes(result)).toContain('anchor_mismatch')
  })

  it('reads no anchor from another account, nor other calldata of the anchor account', async () => {
    expect(await readChainAnchors({ rpc: server.url, address: freshAddress() })).toEqual([])
    expect(decodeAnchorData('0x1234')).toBeUndefined()
    const head = 'ab'.repeat(32)
    expect(decodeAnchorData(encodeAnchorData('default', { upto: 7, head }))).toMatchObject({ upto: 7, head })
  })
})
