import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll } from 'vitest'
import { type CliProcess, callApi, startServer } from '../replicas/cliProcess.js'
import { startDevnet } from './devnetAgentWallet.js'
import { type FaultyRpcServer, faultyRpcServer } from './faultyChain.js'

export type KillableServers = {
  readonly devnet: Devnet
  /** The faulty JSON-RPC proxy every server reaches the devnet through (`setPlan` to misbehave). */
  readonly proxy: FaultyRpcServer
  /** `agentwallet serve` on the suite's data dir, behind the proxy (a fresh process each call). */
  serve(): Promise<{ server: CliProcess; url: string }>
  /** A JSON call as the admin, with an idempotency key when given. */
  call(
    url: string,
    method: string,
    path: string,
    body?: unknown,
    idempotencyKey?: string,
  ): ReturnType<typeof callApi>
}

/**
 * For a suite that kills `agentwallet serve` with SIGKILL mid-flight and starts another on the same
 * data dir: a devnet behind a faulty proxy (the provider `behind` makes of the devnet's, the devnet's
 * own by default), a data dir, and this suite's `beforeAll`/`afterAll` (every server still running is
 * killed, the proxy, devnet and data dir go).
 * @example const { devnet, proxy, serve, call } = killableServers({ name: 'lost-answer', env })
 */
export function killableServers({
  name,
  env,
  args = [],
  behind = (devnet) => devnet.provider,
}: {
  name: string
  env: { AGENTWALLET_ADMIN_KEY: string } & Record<string, string>
  /** More `serve` flags. */
  args?: string[]
  behind?: (devnet: Devnet) => Devnet['provider']
}): KillableServers {
  let devnet: Devnet | undefined
  let proxy: FaultyRpcServer | undefined
  let dataDir: string | undefined
  const running = new Set<CliProcess>()
  beforeAll(async () => {
    devnet = await startDevnet()
    proxy = await faultyRpcServer(behind(devnet))
    dataDir = mkdtempSync(join(tmpdir(), `aw-${name}-`))
  })
  afterAll(async () => {
    await Promise.all([...running].map((server) => server.kill('SIGKILL')))
    await proxy?.close()
    await devnet?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    get devnet() {
      return devnet!
    },
    get proxy() {
      return proxy!
    },
    serve: () =>
      startServer(
        ['--port', '0', '--data-dir', dataDir!, '--chain', `devnet=${proxy!.url}`, ...args],
        env,
        running,
      ),
    call: (url, method, path, body, idempotencyKey) =>
      callApi(url, env.AGENTWALLET_ADMIN_KEY, method, path, body, idempotencyKey),
  }
}
