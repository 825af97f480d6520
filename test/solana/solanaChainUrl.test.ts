import { createSolanaDevnet, type SolanaDevnet, type SolanaDevnetServer } from '@agentwallet/solana-devnet'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CliProcess, callApi, startServer } from '../replicas/cliProcess.js'

const adminKey = `aw_solana_url_admin_${'6'.repeat(32)}`
let devnet: SolanaDevnet
let rpc: SolanaDevnetServer
let url: string
const running = new Set<CliProcess>()

beforeAll(async () => {
  devnet = await createSolanaDevnet()
  rpc = await devnet.serve({ port: 0 })
  url = (
    await startServer(
      ['--port', '0', '--storage', 'memory', '--chain', `sol=${rpc.url}`],
      {
        AGENTWALLET_ADMIN_KEY: adminKey,
        AGENTWALLET_MASTER_KEY: 'd4'.repeat(32),
        AGENTWALLET_LOG_LEVEL: 'warn',
      },
      running,
    )
  ).url
}, 120_000)
afterAll(async () => {
  await Promise.all([...running].map((server) => server.kill('SIGKILL')))
  await rpc?.close()
  await devnet?.close()
})

const call = (method: string, path: string, body?: unknown) => callApi(url, adminKey, method, path, body)

it('serve --chain name=<url> of a Solana node makes a Solana chain, with the devnet’s mints from its address book', async () => {
  const onboarding = await call('GET', '/onboarding')
  expect(onboarding.body.chains).toEqual([{ name: 'sol', chainId: 0, family: 'solana' }])
  const created = await call('POST', '/wallet/create', { agentName: 'remote-sol', chain: 'sol' })
  expect(created.status).toBe(201)
  const wallet = created.body.wallet.address
  const funded = await call('POST', '/devnet/faucet', {
    chain: 'sol',
    address: wallet,
    token: 'DEV',
    amount: '3',
  })
  expect([funded.status, funded.body.balance]).toEqual([200, '3'])
  // The node itself says so: the chain, not the service's memory, is the truth.
  const { value: accounts } = await devnetRead(wallet)
  expect(accounts).toHaveLength(1)
  const balance = await call('GET', `/wallet/${wallet}/balance`)
  expect(balance.body.tokens.find((token: { symbol: string }) => token.symbol === 'DEV')).toMatchObject({
    balance: '3',
    decimals: 9,
  })
})

async function devnetRead(owner: string) {
  const response = await fetch(rpc.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getTokenAccountsByOwner',
      params: [owner, { programId: devnet.addressBook.programs.token }, { encoding: 'jsonParsed' }],
    }),
  })
  return ((await response.json()) as { result: { value: unknown[] } }).result
}
