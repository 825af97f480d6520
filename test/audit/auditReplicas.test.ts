import {
  type AuditLine,
  auditLines,
  auditSigner,
  rulesPolicyEngine,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { postgresStorage } from '@agentwallet/postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testSchemas, testUrl } from '../../packages/postgres/test/testDatabase.js'
import { agentWalletOn, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'

const schemas = testSchemas()
const auditKey = '7d'.repeat(32)
let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
  await schemas.cleanup()
})

it('two replicas on one Postgres append to one tenant at once: one chain, no fork, every checkpoint once, and it verifies', async () => {
  const schema = schemas.next()
  const open = () => postgresStorage({ connectionString: testUrl, schema })
  const [storageA, storageB] = [await open(), await open()]
  const config = { masterKey: '2b'.repeat(32), audit: { key: auditKey, checkpointEvery: 5 } }
  const a = await agentWalletOn(devnet, { ...config, storage: storageA })
  const b = await agentWalletOn(devnet, { ...config, storage: storageB })
  try {
    const [wa, wb] = [await fundedWallet(a, devnet, '5', 'a'), await fundedWallet(b, devnet, '5', 'b')]
    await Promise.all(
      [a, b].flatMap((aw, index) =>
        Array.from({ length: 6 }, async (_, i) => {
          const wallet = index === 0 ? wa : wb
          await aw.createWallet({ agentName: `r${index}-${i}` })
          await aw.updatePolicyRules({
            wallet: wallet.address,
            rules: [{ type: 'max_per_tx', asset: 'native', max: `${i + 1}` }],
          })
          await aw.send({
            wallet: wallet.address,
            to: '0x000000000000000000000000000000000000dEaD',
            value: '0.01',
          })
        }),
      ),
    )
  } finally {
    await Promise.all([a.close(), b.close()])
  }
  const lines: AuditLine[] = []
  for await (const line of auditLines(storageA, 'default')) lines.push(line)
  await Promise.all([storageA.close(), storageB.close()])

  expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index + 1))
  const result = verifyAuditTrail(lines, {
    engine: rulesPolicyEngine(),
    publicKey: auditSigner(Buffer.from(auditKey, 'hex')).publicKey,
  })
  expect(result.problems).toEqual([])
  expect(result.decisionsRerun).toBe(12)
  const upto = lines
    .filter((line) => line.kind === 'audit.checkpoint')
    .map((line) => (line.payload as { upto: number }).upto)
  expect(upto.length).toBeGreaterThan(1)
  expect(new Set(upto).size).toBe(upto.length)
}, 120_000)
