import { generatePrivateKey } from 'viem/accounts'
import type { TenantFixture } from './tenantFixture.js'

export type SampleRequest = { body?: unknown; query?: string }

const dead = '0x000000000000000000000000000000000000dEaD'

/**
 * A valid request (body and query) per operation, keyed `METHOD /openapi/{path}`, naming tenant A's
 * wallet wherever a wallet is named: the base the auth matrix sends and the malformed sweep mutates.
 */
export function sampleRequests(
  f: TenantFixture,
  { usdc, receiverUrl }: { usdc: string; receiverUrl: string },
): Record<string, SampleRequest> {
  const W = f.a.wallet
  return {
    'POST /wallet/create': { body: { agentName: 'matrix' } },
    'POST /wallet/import': { body: { privateKey: generatePrivateKey(), agentName: 'matrix' } },
    'POST /wallet/{wallet}/send': { body: { to: dead, value: '0.001' } },
    // Tenant A's tx is mined: a speed-up or cancel of it answers transaction_not_pending (409).
    'POST /wallet/tx/{transaction}/speed-up': { body: {} },
    'POST /wallet/tx/{transaction}/cancel': { body: {} },
    'POST /wallet/estimate-gas': { body: { wallet: W, to: dead, value: '0.001' } },
    'GET /wallet/{wallet}/history': { query: 'limit=5' },
    'GET /policy/rules': { query: `wallet=${W}` },
    'POST /policy/update': { body: { wallet: W, rules: [] } },
    'POST /policy/evaluate': { body: { wallet: W, to: dead, value: '0.001' } },
    'POST /policy/approvals/{approvalId}/approve': { body: {} },
    'POST /policy/approvals/{approvalId}/reject': { body: {} },
    'POST /payments/{payment}/cancel': { body: {} },
    'POST /api-keys': { body: { name: 'matrix', role: 'agent' } },
    'POST /tenants': { body: { name: `matrix-${Math.random().toString(36).slice(2)}` } },
    'POST /identity/create': { body: { wallet: W, agentName: 'matrix', agentType: 'test' } },
    'POST /ens/register': { body: { name: 'matrixname.eth', wallet: W } },
    'POST /defi/swap': { body: { fromToken: 'ETH', toToken: usdc, amount: '0.001', wallet: W } },
    'GET /defi/quote': { query: `fromToken=ETH&toToken=${usdc}&amount=1&wallet=${W}` },
    'POST /defi/stake': { body: { protocol: 'lido', amount: '0.001', wallet: W } },
    'GET /defi/prices': { query: 'tokens=ETH' },
    'POST /wallet/{wallet}/allowances/revoke': { body: { token: usdc, spender: dead } },
    'POST /multisig/deploy': { body: { owners: [W], threshold: 1, wallet: W } },
    'POST /multisig/{safe}/propose': { body: { wallet: W, to: dead, value: '0' } },
    'POST /multisig/{safe}/confirm': { body: { safeTxHash: f.a.safeTxHash, wallet: W } },
    'POST /webhooks/subscribe': { body: { url: receiverUrl, events: ['tx_confirmed'] } },
    'GET /webhooks/logs': { query: `subscriptionId=${f.a.subscriptionId}` },
    'GET /webhooks/history': { query: `subscriptionId=${f.a.subscriptionId}` },
    'POST /screening/lists': { body: { name: 'matrix' } },
    'POST /screening/lists/{list}/entries': { body: { entries: [{ address: dead, reason: 'matrix' }] } },
    'POST /screening/lists/{list}/entries/remove': { body: { addresses: [dead], reason: 'matrix' } },
    'POST /screening/lists/{list}/import': { body: { format: 'csv', content: `${dead},matrix\n` } },
  }
}
