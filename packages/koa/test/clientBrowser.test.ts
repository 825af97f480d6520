import { fileURLToPath } from 'node:url'
import type * as ClientModule from '@agentwallet/client'
import { type AgentWalletHttpError, createClient } from '@agentwallet/client'
import { createDevnet } from '@agentwallet/devnet'
import { build } from 'esbuild'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

/*
 * The client as a browser app loads it: bundled by esbuild for the browser (the contract and zod
 * included, nothing of node), run by real Chromium against a running server. The page is served at
 * the server's own origin (Playwright answers that one path), so the calls are same-origin fetches.
 * Chromium: `bash scripts/ensure-test-services.sh`, or `CHROMIUM_PATH`.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url))
const absent = '0x000000000000000000000000000000000000dEaD'

let t: TestServer
let browser: Browser
let bundle: string

beforeAll(async () => {
  const built = await build({
    entryPoints: [`${root}packages/client/src/index.ts`],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'AgentWalletClient',
    platform: 'browser',
    tsconfig: `${root}tsconfig.json`,
    absWorkingDir: root,
    write: false,
    logLevel: 'silent',
  })
  bundle = built.outputFiles[0]!.text
  t = await startTestServer({ devnet: await createDevnet() })
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
})
afterAll(async () => {
  await browser?.close()
  await t?.close()
  await t?.devnet.close()
})

describe('@agentwallet/client in Chromium', () => {
  it('creates and lists a wallet, and a failure carries its typed code and status', async () => {
    const { key } = await createClient({ baseUrl: t.url, apiKey: t.adminKey }).createApiKey({
      name: 'browser',
      role: 'agent',
    })
    const page = await browser.newPage()
    const pageUrl = `${t.url}/client-page`
    await page.route(pageUrl, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>client</title>' }),
    )
    await page.goto(pageUrl)
    await page.addScriptTag({ content: bundle })

    const seen = await page.evaluate(
      async ({ apiKey, absent }) => {
        // The page's globals (this file is typed without the DOM library), and the bundle's: what
        // `import { createClient } from '@agentwallet/client'` gives an app.
        const globals = globalThis as unknown as {
          AgentWalletClient: typeof ClientModule
          location: { origin: string }
          navigator?: { userAgent?: unknown }
          document?: unknown
        }
        const { createClient, AgentWalletHttpError } = globals.AgentWalletClient
        const client = createClient({ baseUrl: globals.location.origin, apiKey })
        const { wallet } = await client.createWallet({ agentName: 'browser' }, { idempotencyKey: 'b1' })
        const listed = await client.listWallets()
        const failure = await client.getWallet({ wallet: absent as `0x${string}` }).then(
          () => undefined,
          (error: AgentWalletHttpError) => ({
            name: error.name,
            code: error.code,
            status: error.status,
            ofClient: error instanceof AgentWalletHttpError,
          }),
        )
        const refused = await client.createWallet({ agentName: 42 } as never).then(
          () => undefined,
          (error: AgentWalletHttpError) => ({
            code: error.code,
            status: error.status,
            issues: (error.details?.issues as unknown[] | undefined)?.length,
          }),
        )
        return {
          inBrowser: typeof globals.navigator?.userAgent === 'string' && typeof globals.document === 'object',
          created: wallet.address as string,
          listed: listed.wallets.map((entry) => entry.address as string),
          failure,
          refused,
        }
      },
      { apiKey: key, absent },
    )

    expect(seen.inBrowser).toBe(true)
    expect(seen.listed).toEqual([seen.created])
    expect(seen.failure).toEqual({ name: 'NotFoundError', code: 'not_found', status: 404, ofClient: true })
    expect(seen.refused).toMatchObject({ code: 'validation_failed', status: 400 })
    expect(seen.refused?.issues).toBeGreaterThan(0)
    // The wallet the page made is the server's.
    const agent = createClient({ baseUrl: t.url, apiKey: key })
    expect((await agent.getWallet({ wallet: seen.created as `0x${string}` })).wallet.address).toBe(
      seen.created,
    )
  })
})
