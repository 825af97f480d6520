import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let address: string
let agentKey: string

beforeAll(async () => {
  t = await startTestServer({ bodyLimitBytes: 10_000 })
  address = (await t.call('POST', '/wallet/create', { body: { agentName: 'victim' } })).body.wallet.address
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'bot', role: 'agent' } })).body.key
})
afterAll(async () => t?.close())

type Case = [
  name: string,
  method: string,
  path: () => string,
  options: Parameters<TestServer['call']>[2],
  status: number,
  code: string,
]
const to = '0x000000000000000000000000000000000000dEaD'
const send = () => `/wallet/${address}/send`

const cases: Case[] = [
  ['invalid JSON', 'POST', () => '/wallet/create', { raw: '{"agentName":' }, 400, 'validation_failed'],
  ['JSON array body', 'POST', () => '/wallet/create', { body: [1, 2] }, 400, 'validation_failed'],
  ['JSON string body', 'POST', () => '/wallet/create', { body: 'hello' }, 400, 'validation_failed'],
  ['JSON null body', 'POST', () => '/wallet/create', { raw: 'null' }, 400, 'validation_failed'],
  ['missing body', 'POST', () => '/wallet/create', {}, 400, 'validation_failed'],
  [
    'unknown field',
    'POST',
    () => '/wallet/create',
    { body: { agentName: 'a', agentname: 'b' } },
    400,
    'validation_failed',
  ],
  [
    'empty agentName',
    'POST',
    () => '/wallet/create',
    { body: { agentName: '   ' } },
    400,
    'validation_failed',
  ],
  [
    'agentName a number',
    'POST',
    () => '/wallet/create',
    { body: { agentName: 42 } },
    400,
    'validation_failed',
  ],
  [
    'agentName too long',
    'POST',
    () => '/wallet/create',
    { body: { agentName: 'x'.repeat(101) } },
    400,
    'validation_failed',
  ],
  [
    'unknown chain',
    'POST',
    () => '/wallet/create',
    { body: { agentName: 'a', chain: 'moonbase' } },
    400,
    'unsupported_chain',
  ],
  [
    'wrong content type',
    'POST',
    () => '/wallet/create',
    { raw: 'agentName=a', headers: { 'content-type': 'text/plain' } },
    415,
    'unsupported_media_type',
  ],
  [
    'body too large',
    'POST',
    () => '/wallet/create',
    { body: { agentName: 'x'.repeat(20_000) } },
    413,
    'payload_too_large',
  ],
  [
    'import: short key',
    'POST',
    () => '/wallet/import',
    { body: { privateKey: '0x1234', agentName: 'a' } },
    400,
    'validation_failed',
  ],
  [
    'import: not hex',
    'POST',
    () => '/wallet/import',
    { body: { privateKey: `0x${'zz'.repeat(32)}`, agentName: 'a' } },
    400,
    'validation_failed',
  ],
  [
    'import: zero key',
    'POST',
    () => '/wallet/import',
    { body: { privateKey: `0x${'00'.repeat(32)}`, agentName: 'a' } },
    400,
    'validation_failed',
  ],
  ['send: value as number', 'POST', send, { body: { to, value: 0.1 } }, 400, 'validation_failed'],
  ['send: negative value', 'POST', send, { body: { to, value: '-1' } }, 400, 'validation_failed'],
  ['send: exponent', 'POST', send, { body: { to, value: '1e18' } }, 400, 'validation_failed'],
  ['send: hex value', 'POST', send, { body: { to, value: '0x10' } }, 400, 'validation_failed'],
  [
    'send: too many decimals',
    'POST',
    send,
    { body: { to, value: '0.0000000000000000001' } },
    400,
    'validation_failed',
  ],
  ['send: bad recipient', 'POST', send, { body: { to: '0x1234', value: '1' } }, 400, 'validation_failed'],
  [
    'send: bad checksum',
    'POST',
    send,
    { body: { to: '0x000000000000000000000000000000000000DeaD', value: '1' } },
    400,
    'validation_failed',
  ],
  ['send: unknown field', 'POST', send, { body: { to, value: '1', amount: '1' } }, 400, 'validation_failed'],
  [
    'send: token and data',
    'POST',
    send,
    { body: { to, value: '1', token: to, data: '0x' } },
    400,
    'validation_failed',
  ],
  ['send: odd data', 'POST', send, { body: { to, value: '0', data: '0x123' } }, 400, 'validation_failed'],
  [
    'send: bad path address',
    'POST',
    () => '/wallet/0xnothex/send',
    { body: { to, value: '1' } },
    400,
    'validation_failed',
  ],
  [
    'send: unknown wallet',
    'POST',
    () => `/wallet/${to}/send`,
    { body: { to, value: '1' } },
    404,
    'not_found',
  ],
  [
    'send: bad idempotency key',
    'POST',
    send,
    { body: { to, value: '1' }, headers: { 'idempotency-key': 'has space' } },
    400,
    'validation_failed',
  ],
  ['balance: unknown query', 'GET', () => `/wallet/${address}/balance?foo=1`, {}, 400, 'validation_failed'],
  [
    'balance: bad token list',
    'GET',
    () => `/wallet/${address}/balance?tokens=0x1,0x2`,
    {},
    400,
    'validation_failed',
  ],
  ['history: limit 0', 'GET', () => `/wallet/${address}/history?limit=0`, {}, 400, 'validation_failed'],
  ['history: limit 201', 'GET', () => `/wallet/${address}/history?limit=201`, {}, 400, 'validation_failed'],
  [
    'history: negative offset',
    'GET',
    () => `/wallet/${address}/history?offset=-1`,
    {},
    400,
    'validation_failed',
  ],
  [
    'history: limit not a number',
    'GET',
    () => `/wallet/${address}/history?limit=ten`,
    {},
    400,
    'validation_failed',
  ],
  [
    'history: repeated limit',
    'GET',
    () => `/wallet/${address}/history?limit=1&limit=2`,
    {},
    400,
    'validation_failed',
  ],
  ['tx: bad hash', 'GET', () => '/wallet/tx/0x1234', {}, 400, 'validation_failed'],
  ['tx: unknown hash', 'GET', () => `/wallet/tx/0x${'ab'.repeat(32)}`, {}, 404, 'not_found'],
  ['list: unexpected query', 'GET', () => '/wallet/list?page=2', {}, 400, 'validation_failed'],
  [
    'estimate-gas: missing from',
    'POST',
    () => '/wallet/estimate-gas',
    { body: { to, value: '1' } },
    400,
    'validation_failed',
  ],
  [
    'policy: rules not an array',
    'POST',
    () => '/policy/update',
    { body: { rules: 'none' } },
    400,
    'validation_failed',
  ],
  [
    'policy: unknown rule type',
    'POST',
    () => '/policy/update',
    { body: { rules: [{ type: 'yolo' }] } },
    400,
    'validation_failed',
  ],
  [
    'policy: float limit',
    'POST',
    () => '/policy/update',
    { body: { rules: [{ type: 'max_per_tx', asset: 'native', max: 0.5 }] } },
    400,
    'validation_failed',
  ],
  [
    'policy: bad window',
    'POST',
    () => '/policy/update',
    { body: { rules: [{ type: 'spend_limit', asset: 'native', max: '1', window: 'forever' }] } },
    400,
    'validation_failed',
  ],
  ['policy: bad wallet query', 'GET', () => '/policy/rules?wallet=nope', {}, 400, 'validation_failed'],
  ['approvals: bad status', 'GET', () => '/policy/approvals?status=maybe', {}, 400, 'validation_failed'],
  [
    'approvals: unknown id',
    'POST',
    () => '/policy/approvals/apr_missing/approve',
    { body: {} },
    404,
    'not_found',
  ],
  [
    'approvals: agent approves',
    'POST',
    () => '/policy/approvals/apr_missing/approve',
    { key: 'AGENT', body: {} },
    403,
    'forbidden',
  ],
  [
    'api-keys: bad role',
    'POST',
    () => '/api-keys',
    { body: { name: 'x', role: 'root' } },
    400,
    'validation_failed',
  ],
  [
    'api-keys: missing name',
    'POST',
    () => '/api-keys',
    { body: { role: 'agent' } },
    400,
    'validation_failed',
  ],
  ['api-keys: unknown id', 'DELETE', () => '/api-keys/key_nope', {}, 404, 'not_found'],
  ['tenants: empty name', 'POST', () => '/tenants', { body: { name: '' } }, 400, 'validation_failed'],
  // Display strings: nothing that could make the dashboard show something other than what was stored.
  ...(
    [
      ['agentName with NUL', '/wallet/create', { agentName: 'bot\u0000admin' }],
      ['agentName with a bidi override', '/wallet/create', { agentName: 'bot\u202egpj.exe' }],
      ['agentName with a lone surrogate', '/wallet/create', { agentName: 'bot\ud800' }],
      ['agentName with a newline', '/wallet/create', { agentName: 'bot\nadmin' }],
      ['key name with a bidi isolate', '/api-keys', { name: 'ops\u2066x\u2069', role: 'agent' }],
      ['tenant name with a C1 control', '/tenants', { name: 'acme\u0085' }],
      [
        'rule description with a bidi override',
        '/policy/update',
        { rules: [{ type: 'max_per_tx', asset: 'native', max: '1', description: 'cap \u202e01 HTE' }] },
      ],
      [
        'rule id with an escape character',
        '/policy/update',
        { rules: [{ id: 'cap\u001b[2J', type: 'max_per_tx', asset: 'native', max: '1' }] },
      ],
      [
        'webhook description with NUL',
        '/webhooks/subscribe',
        { url: 'https://1.1.1.1/hook', events: ['*'], description: 'ours\u0000' },
      ],
      [
        'identity agentType with a bidi isolate',
        '/identity/create',
        { walletAddress: '0x000000000000000000000000000000000000dEaD', agentName: 'a', agentType: '\u2067x' },
      ],
      [
        'approval reason with a bidi override',
        '/policy/approvals/apr_missing/reject',
        { reason: 'ok\u202e' },
      ],
    ] as const
  ).map(
    ([name, path, body]): Case => [
      `display text: ${name}`,
      'POST',
      () => path,
      { body },
      400,
      'validation_failed',
    ],
  ),
  ['unknown route', 'GET', () => '/wallet', {}, 404, 'not_found'],
  ['unknown nested route', 'GET', () => '/does/not/exist', {}, 404, 'not_found'],
  ['wrong method', 'PUT', () => '/wallet/create', { body: {} }, 405, 'method_not_allowed'],
  ['body on a GET-only resource via DELETE', 'DELETE', () => '/wallet/list', {}, 405, 'method_not_allowed'],
  [
    'body on a route that takes none',
    'DELETE',
    () => '/api-keys/key_x',
    { body: { force: true } },
    400,
    'validation_failed',
  ],
]

it('has at least 30 malformed requests', () => {
  expect(cases.length).toBeGreaterThanOrEqual(30)
})

it.each(cases)('%s → enveloped %i', async (_name, method, path, options, status, code) => {
  const key = options?.key === 'AGENT' ? agentKey : options?.key
  const response = await t.call(method, path(), { ...options, key: key ?? t.adminKey })
  expect(response.body).toMatchObject({ success: false, error: { code } })
  expect(typeof response.body.error.message).toBe('string')
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/application\/json/)
})

it('never answers 5xx or leaks a stack to any of them', async () => {
  const logs = t.logs.join('')
  expect(logs).not.toMatch(/"level":50/)
})
