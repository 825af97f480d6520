import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devnetAccounts } from '@agentwallet/devnet'
import { afterAll, expect, it } from 'vitest'
import { cliProcesses } from '../../../test/helpers/cliProcesses.js'

const adminKey = 'aw_fixed_admin_key_for_audit_test_0123456'
const funded = devnetAccounts[8]!
const { run, dataDir, cleanup } = cliProcesses('agentwallet-audit-', {
  AGENTWALLET_MASTER_KEY: '',
  AGENTWALLET_AUDIT_KEY: '',
  AGENTWALLET_ADMIN_KEY: adminKey,
})

afterAll(cleanup)

it('serves the trail (GET /audit, /audit/export, the key in /health), and `audit verify` checks it offline and reports a changed entry', async () => {
  const served = await run(['serve', '--port', '0', '--data-dir', dataDir], /wallet\/list\n/)
  const url = /listening on (http:\/\/\S+)/.exec(served.out)![1]!
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return response
  }
  const imported = (await (
    await call('POST', '/wallet/import', { privateKey: funded.privateKey, agentName: 'a' })
  ).json()) as {
    wallet: { address: string; id: string }
  }
  const sent = await call('POST', `/wallet/${imported.wallet.address}/send`, {
    to: '0x000000000000000000000000000000000000dEaD',
    value: '0.01',
  })
  expect(sent.status).toBe(200)

  const health = (await (await fetch(`${url}/health`)).json()) as { auditPublicKey: string }
  expect(health.auditPublicKey).toMatch(/^[0-9a-f]{64}$/)
  const listed = (await (await call('GET', '/audit?kind=policy.decision')).json()) as {
    entries: { kind: string; subjects: { walletId: string } }[]
  }
  expect(listed.entries).toEqual([
    expect.objectContaining({
      kind: 'policy.decision',
      subjects: expect.objectContaining({ walletId: imported.wallet.id }),
    }),
  ])
  const exported = await call('GET', '/audit/export')
  expect(exported.headers.get('content-type')).toContain('application/x-ndjson')
  // An approver may read entries (the dashboard links approvals to them); only an admin exports.
  const approver = (await (await call('POST', '/api-keys', { name: 'human', role: 'approver' })).json()) as {
    key: string
  }
  const asApprover = (path: string) => fetch(`${url}${path}`, { headers: { 'x-api-key': approver.key } })
  expect((await asApprover('/audit')).status).toBe(200)
  const refused = await asApprover('/audit/export')
  expect(refused.status).toBe(403)
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden')
  const httpFile = join(dataDir, 'http.jsonl')
  writeFileSync(httpFile, await exported.text())

  served.child.kill('SIGTERM')
  await new Promise((resolve) => served.child.once('exit', resolve))

  // The export over HTTP verifies against the key /health published: it ends with a checkpoint signed when exported.
  const fromHttp = await run(['audit', 'verify', httpFile, '--public-key', health.auditPublicKey])
  expect(fromHttp.code, fromHttp.err).toBe(0)
  // The data dir, after shutdown signed its last checkpoint.
  const fromDir = await run(['audit', 'verify', '--data-dir', dataDir])
  expect(fromDir.code, fromDir.err).toBe(0)
  expect(fromDir.out).toMatch(
    /Verified: \d+ entries .* 1 decisions re-run \(0 not\), 0 covered by no signed checkpoint, 0 problems/,
  )

  const file = join(dataDir, 'trail.jsonl')
  const wrote = await run(['audit', 'export', '--data-dir', dataDir, '--out', file])
  expect(wrote.code, wrote.err).toBe(0)
  const lines = readFileSync(file, 'utf8').trim().split('\n')
  const target = lines.findIndex((line) => line.includes('"kind":"vault.signature"'))
  const changed = JSON.parse(lines[target]!) as { payload: { hash: string } }
  changed.payload.hash = `0x${'ab'.repeat(32)}`
  lines[target] = JSON.stringify(changed)
  writeFileSync(file, `${lines.join('\n')}\n`)
  const tampered = await run(['audit', 'verify', file])
  expect(tampered.code).toBe(1)
  expect(tampered.out).toContain(`entry ${target + 1}:`)
  expect(tampered.out).toContain('NOT verified')
}, 120_000)
