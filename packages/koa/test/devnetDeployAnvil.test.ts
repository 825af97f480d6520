import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { devnetAccounts } from '@agentwallet/devnet'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Anvil, startAnvil } from '../../../test/helpers/anvil.js'
import { cliEntry } from '../../../test/helpers/cliBundle.js'
import { CliError } from '../src/cli/cliError.js'
import { devnetDeployCommand } from '../src/cli/devnetDeployCommand.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { serve } from '../src/cli/serve.js'

// `agentwallet devnet deploy` onto a plain anvil, then `serve --chain devnet=<anvil>
// --address-book devnet=<file>`: the contracts come from the file, the faucet from the node.
const adminKey = 'aw_test_root_admin_key_deploy_anvil_0123'
const env = { AGENTWALLET_ADMIN_KEY: adminKey }
let anvil: Anvil
let other: Anvil
const dir = mkdtempSync(join(tmpdir(), 'aw-deploy-anvil-'))
const book = join(dir, 'address-book.json')
const running: { close(): Promise<void> }[] = []

beforeAll(async () => {
  ;[anvil, other] = await Promise.all([startAnvil(), startAnvil(['--chain-id', '999'])])
})
afterAll(async () => {
  for (const server of running) await server.close()
  await anvil?.close()
  await other?.close()
})

/** The fields of the answers this file reads. */
type Answer = { wallet: { address: string }; amountOutRaw: string; error?: { code: string } }

async function serveWith(flags: string[]) {
  // A data dir of its own: the default (./.agentwallet) may be held by another test's server.
  const dataDir = join(dir, `serve-${running.length}`)
  const argv = [
    'serve',
    '--storage',
    'memory',
    '--data-dir',
    dataDir,
    '--port',
    '0',
    '--log-level',
    'silent',
    ...flags,
  ]
  const server = await serve(loadConfig(parseCli(argv).values, env), env, () => {})
  running.push(server)
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': adminKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Answer }
  }
  return { server, call }
}

it('deploys the protocol set onto anvil and writes its address book; the key is never printed', async () => {
  const printed: string[] = []
  await devnetDeployCommand({ rpc: anvil.url, out: book }, {}, (line) => printed.push(line))
  const written = JSON.parse(readFileSync(book, 'utf8'))
  // The devnet's deployer on a fresh node: the devnet's addresses (Safe at its canonical ones).
  expect(written.weth).toBe('0x59043547c469bb52C8F4b83ee144CBb9A8ec0002')
  expect(written.safe.singleton).toBe('0x41675C099F32341bf84BFc5382aF534df5C7461a')
  expect(written.accountAbstraction.entryPoint).toBe('0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108')
  expect(written.tokens.map((token: { symbol: string }) => token.symbol)).toEqual(['USDC', 'DAI'])
  expect(printed.join('\n')).toContain(`--address-book devnet=${book}`)
  expect(printed.join('\n')).not.toContain(devnetAccounts[0]!.privateKey.slice(2))
})

it('the CLI routes `devnet deploy`; a second deploy onto the same node writes a book of its own', async () => {
  // Bound: the CLI bundle (built once per change of the sources) and one deploy.
  const second = join(dir, 'second.json')
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cliEntry(), 'devnet', 'deploy', '--rpc', anvil.url, '--out', second],
    { env: { ...process.env, AGENTWALLET_DEPLOY_KEY: devnetAccounts[2]!.privateKey }, timeout: 120_000 },
  )
  expect(stdout).toContain(`address book in ${second}`)
  expect(stdout).not.toContain(devnetAccounts[2]!.privateKey.slice(2))
  // The deployer's nonces moved on: other addresses, each with code.
  const { weth } = JSON.parse(readFileSync(second, 'utf8'))
  expect(weth === JSON.parse(readFileSync(book, 'utf8')).weth).toBe(false)
  const code = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [weth, 'latest'] }),
  })
  expect(((await code.json()) as { result: string }).result.length > 2).toBe(true)
}, 150_000)

it('refuses bad input with one clear line, never echoing a key', async () => {
  const refused = (values: Record<string, string>, environment = {}) =>
    devnetDeployCommand(values, environment, () => {}).catch((error: unknown) => error)
  expect(await refused({ out: book })).toBeInstanceOf(CliError)
  expect(await refused({ rpc: anvil.url })).toBeInstanceOf(CliError)
  const badKey = await refused({ rpc: anvil.url, out: book }, { AGENTWALLET_DEPLOY_KEY: '0xnotakey-secret' })
  expect(badKey).toBeInstanceOf(CliError)
  expect((badKey as Error).message).not.toContain('notakey-secret')
  // A node of another chain id: the Safe factory's presigned deployment is for 31337 only.
  expect(await refused({ rpc: other.url, out: join(dir, 'other.json') })).toBeInstanceOf(CliError)
  expect(() => loadConfig(parseCli(['serve', '--address-book', 'devnet']).values, {})).toThrow(CliError)
})

it('serve --address-book gives the chain its contracts: the faucet funds and a swap routes on anvil', async () => {
  const { call } = await serveWith(['--chain', `devnet=${anvil.url}`, '--address-book', `devnet=${book}`])
  const created = await call('POST', '/wallet/create', { agentName: 'on-anvil' })
  const address = created.body.wallet.address
  const funded = await call('POST', '/devnet/faucet', { address, amount: '5' })
  expect(funded).toMatchObject({ status: 200, body: { chain: 'devnet', amount: '5', balance: '5' } })
  const minted = await call('POST', '/devnet/faucet', { address, token: 'DAI', amount: '7' })
  expect(minted).toMatchObject({ status: 200, body: { token: 'DAI', amount: '7', balance: '7' } })
  const swapped = await call('POST', '/defi/swap', {
    wallet: address,
    fromToken: 'ETH',
    toToken: 'USDC',
    amount: '0.05',
  })
  expect(swapped.status, JSON.stringify(swapped.body).slice(0, 400)).toBe(200)
  expect(swapped.body).toMatchObject({ status: 'confirmed' })
  expect(BigInt(swapped.body.amountOutRaw) > 0n).toBe(true)
})

it('the faucet funds only on a dev chain: chain id 999 is none until --dev-chain marks it', async () => {
  const plain = await serveWith(['--chain', `other=${other.url}`])
  const address = (await plain.call('POST', '/wallet/create', { agentName: 'other' })).body.wallet.address
  const refused = await plain.call('POST', '/devnet/faucet', { address, amount: '1' })
  expect(refused).toMatchObject({ status: 400, body: { error: { code: 'unsupported_chain' } } })
  const marked = await serveWith(['--chain', `other=${other.url}`, '--dev-chain', 'other'])
  const funded = await marked.call('POST', '/devnet/faucet', { address, amount: '1' })
  expect(funded).toMatchObject({ status: 200, body: { chain: 'other', amount: '1' } })
})

it('an address book or dev chain naming no configured chain, or a file that is not JSON, stops the start', async () => {
  writeFileSync(join(dir, 'broken.json'), 'not json')
  const start = (flags: string[]) => serveWith(['--chain', `devnet=${anvil.url}`, ...flags]).catch((e) => e)
  expect(await start(['--address-book', `mainnet=${book}`])).toBeInstanceOf(CliError)
  expect(await start(['--dev-chain', 'mainnet'])).toBeInstanceOf(CliError)
  expect(await start(['--address-book', `devnet=${join(dir, 'broken.json')}`])).toBeInstanceOf(CliError)
})
