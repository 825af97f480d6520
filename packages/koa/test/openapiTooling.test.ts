/**
 * The served OpenAPI document, read by the ecosystem's own tools: openapi-typescript generates types
 * from it, a small openapi-fetch program that reads `eth` and `transaction.hash` type-checks against
 * them and runs against the server, and Redocly's linter finds nothing but what redocly.yaml explains.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { lintFromString, loadConfig } from '@redocly/openapi-core'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { parseEther } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
// Inside the repository so the program resolves openapi-fetch from its node_modules; git ignores it.
const generated = here('./.generated/')

let t: TestServer
let document: Record<string, unknown>
beforeAll(async () => {
  t = await startTestServer()
  document = (await t.call('GET', '/openapi.json', { key: '' })).body
  rmSync(generated, { recursive: true, force: true })
  mkdirSync(generated, { recursive: true })
})
afterAll(async () => {
  await t?.close()
  rmSync(generated, { recursive: true, force: true })
})

const program = `import createClient from 'openapi-fetch'
import type { paths } from './schema.js'

/** Creates a wallet, reads its balance in ETH, sends from it and answers the transaction's hash. */
export async function run(baseUrl: string, apiKey: string, fund: (address: string) => Promise<void>) {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } })
  const created = await client.POST('/wallet/create', { body: { agentName: 'typed-client' } })
  if (!created.data) throw new Error(JSON.stringify(created.error))
  const wallet: string = created.data.wallet.address
  await fund(wallet)
  const balance = await client.GET('/wallet/{wallet}/balance', { params: { path: { wallet } } })
  if (!balance.data) throw new Error(JSON.stringify(balance.error))
  const eth: string = balance.data.eth
  const sent = await client.POST('/wallet/{wallet}/send', {
    params: { path: { wallet } },
    body: { to: '0x000000000000000000000000000000000000dEaD', value: '0.5' },
  })
  if (!sent.data) throw new Error(JSON.stringify(sent.error))
  const hash: string | null = sent.data.transaction.hash
  const refused = await client.POST('/wallet/{wallet}/send', {
    params: { path: { wallet } },
    body: { to: '0x000000000000000000000000000000000000dEaD', value: '5000' },
  })
  const code: string | undefined = refused.error?.error.code
  return { eth, hash, code }
}
`

it('generates types with openapi-typescript that a typed openapi-fetch program compiles against and runs with', async () => {
  writeFileSync(`${generated}schema.ts`, astToString(await openapiTS(document as never)))
  writeFileSync(`${generated}program.ts`, program)
  const compiled = ts.createProgram([`${generated}program.ts`], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  })
  const diagnostics = ts
    .getPreEmitDiagnostics(compiled)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  expect(diagnostics).toEqual([])

  const { run } = await import(`${generated}program.ts`)
  const answer = await run(t.url, t.adminKey, (address: string) =>
    t.devnet.faucet(address as `0x${string}`, parseEther('2')),
  )
  expect(answer.eth).toBe('2')
  expect(answer.hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(answer.code).toBe('insufficient_funds')
})

it('passes Redocly’s recommended rules (as redocly.yaml sets them) with no error and no warning', async () => {
  const config = await loadConfig({ configPath: here('../../../redocly.yaml') })
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: '/openapi.json',
    config,
  })
  expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual([])
})
