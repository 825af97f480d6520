import { type AgentWallet, type AuditLine, auditLines } from '@agentwallet/core'
import { describe, expect, it } from 'vitest'
import { useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// Tenants made and webhook subscriptions changed are in the audit trail (docs/security.md).
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ aw } = started), {
  audit: { key: 'c3'.repeat(32), checkpointEvery: 100 },
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

async function entries(tenantId: string, kind: string): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, tenantId)) if (line.kind === kind) lines.push(line)
  return lines
}

describe('changes in the audit trail', () => {
  it('records the tenants made: the default one at bootstrap, and each the root admin creates', async () => {
    const adminKey = 'aw_audit_changes_admin_key_0123456789ab'
    await aw.bootstrapAdmin({ adminKey })
    const root = aw.as(await aw.authenticate(adminKey))
    const { tenant, key } = await root.createTenant({ name: 'acme' })
    const created = await entries('default', 'tenant.created')
    expect(created.map((line) => line.payload)).toEqual([
      { tenantId: 'default', name: 'default', createdBy: null },
      { tenantId: tenant.id, name: 'acme', createdBy: root.principal.id },
    ])
    expect(JSON.stringify(created)).not.toContain(key)
  })

  it('records a webhook subscribed and deleted, never its secret', async () => {
    const { subscription, secret } = await aw.subscribeWebhook({
      url: 'http://127.0.0.1:9/hook',
      events: ['tx.confirmed'],
    })
    await aw.deleteWebhook({ subscriptionId: subscription.id })
    const changed = await entries('default', 'webhook.changed')
    expect(changed.map((line) => line.payload)).toEqual([
      expect.objectContaining({
        change: 'subscribed',
        subscriptionId: subscription.id,
        url: subscription.url,
      }),
      expect.objectContaining({
        change: 'deleted',
        subscriptionId: subscription.id,
        events: ['tx.confirmed'],
      }),
    ])
    expect(JSON.stringify(changed)).not.toContain(secret)
  })
})
