// node --import tsx bench/auditVerifyMemory.ts [--entries 1000000] [--keep] — the peak memory of
// `agentwallet audit verify` on a generated trail (issue #39): a real trail is made on the devnet
// (sends judged by rules, one denied), its decision and signature entries are repeated over 100
// wallets with fresh times and counted spends chained decision to decision, a checkpoint signed with
// the audit key every 100 entries; then the CLI (bundled from source) verifies the file with the key,
// re-running every decision, under /usr/bin/time. Prints its exit code, the peak RSS and the file's size.
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  type AuditBody,
  type AuditLine,
  auditLines,
  auditSigner,
  checkpointMessage,
  genesisHash,
  hashAuditBody,
  memoryStorage,
  nextChainHash,
} from '@agentwallet/core'
import { cliEntry } from '../test/helpers/cliBundle.js'
import { agentWalletOn, freshAddress, fundedWallet, startDevnet } from '../test/helpers/devnetAgentWallet.js'

const { values } = parseArgs({ options: { entries: { type: 'string' }, keep: { type: 'boolean' } } })
const entries = Number(values.entries ?? 1_000_000)
const seed = Buffer.from('d4'.repeat(32), 'hex')
const signer = auditSigner(seed)

// A real trail to take the entries' shapes from.
const devnet = await startDevnet()
const storage = memoryStorage()
const aw = await agentWalletOn(devnet, { storage, audit: { key: seed } })
const wallet = await fundedWallet(aw, devnet, '5')
await aw.updatePolicyRules({
  wallet: wallet.address,
  rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
})
for (let i = 0; i < 4; i++) await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
await aw.close()
await devnet.close()
const real: AuditLine[] = []
for await (const line of auditLines(storage, 'default')) real.push(line)
const strip = ({ seq: _s, hash: _h, prevHash: _p, chainHash: _c, ...body }: AuditLine): AuditBody => body
const decision = strip(real.findLast((line) => line.kind === 'policy.decision')!)
const signature = strip(real.findLast((line) => line.kind === 'vault.signature')!)

const dir = mkdtempSync(join(tmpdir(), 'agentwallet-verify-memory-'))
const file = join(dir, 'trail.jsonl')
const out = createWriteStream(file)
let chainHash = genesisHash
const lastDecision = new Map<number, string>()
const write = async (seq: number, body: AuditBody) => {
  const hash = hashAuditBody(body)
  const prevHash = chainHash
  chainHash = nextChainHash(prevHash, hash)
  if (!out.write(`${JSON.stringify({ seq, ...body, hash, prevHash, chainHash })}\n`)) await once(out, 'drain')
  return hash
}
const start = Date.parse('2026-01-01T00:00:00Z')
for (let seq = 1; seq <= entries; seq++) {
  const at = new Date(start + seq * 1000).toISOString()
  if (seq % 100 === 0) {
    const payload = {
      upto: seq - 1,
      head: chainHash,
      publicKey: signer.publicKey,
      signature: signer.sign(checkpointMessage('default', seq - 1, chainHash)),
    }
    await write(seq, { v: 1, tenantId: 'default', at, kind: 'audit.checkpoint', subjects: {}, payload })
    continue
  }
  const w = seq % 100
  const walletId = `wal_bench_${w}`
  if (seq % 2 === 0) {
    await write(seq, { ...signature, at, subjects: { ...signature.subjects, walletId } })
    continue
  }
  const after = lastDecision.get(w)
  const payload = {
    ...(decision.payload as object),
    recent: after ? { after, drop: [], add: [] } : { add: [] },
  }
  lastDecision.set(
    w,
    await write(seq, { ...decision, at, subjects: { ...decision.subjects, walletId }, payload }),
  )
}
out.end()
await once(out, 'finish')

const size = statSync(file).size
const verify = spawnSync(
  '/usr/bin/time',
  ['-f', '%M', process.execPath, cliEntry(), 'audit', 'verify', file, '--public-key', signer.publicKey],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
)
const peakKb = Number(verify.stderr.trim().split('\n').at(-1))
console.log(verify.stdout.trim().split('\n').slice(-2).join('\n'))
console.log(
  JSON.stringify({
    entries,
    fileMB: Math.round(size / 1e6),
    exit: verify.status,
    peakRssMB: Math.round(peakKb / 1024),
  }),
)
if (!values.keep) rmSync(dir, { recursive: true, force: true })
