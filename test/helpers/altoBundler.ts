import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Address, Hex } from 'viem'

/** Pimlico's alto (a real ERC-4337 bundler, the npm package `@pimlico/alto`), as a child process. */
export type AltoBundler = { url: string; stop(): Promise<void> }

const cli = fileURLToPath(new URL('../../node_modules/@pimlico/alto/esm/cli/alto.js', import.meta.url))

/**
 * Starts alto against `rpcUrl` (the devnet served over HTTP) for `entryPoint`, bundling from
 * `executorKey`; `utilityKey` deploys alto's simulation contracts through the deterministic deployer.
 * Safe mode is off: it needs a `debug_traceCall` JS tracer the devnet's EDR does not run.
 * Resolves once alto answers JSON-RPC.
 */
export async function startAlto({
  rpcUrl,
  entryPoint,
  executorKey,
  utilityKey,
}: {
  rpcUrl: string
  entryPoint: Address
  executorKey: Hex
  utilityKey: Hex
}): Promise<AltoBundler> {
  const port = await freePort()
  const args = [
    cli,
    ['--entrypoints', entryPoint],
    ['--executor-private-keys', executorKey],
    ['--utility-private-key', utilityKey],
    ['--rpc-url', rpcUrl],
    ['--port', String(port)],
    ['--safe-mode', 'false'],
    // The devnet mines each send at once: poll and bundle often.
    ['--block-time', '100'],
    ['--min-bundle-interval', '10'],
    ['--max-bundle-interval', '50'],
    ['--utility-wallet-monitor', 'false'],
    ['--refilling-wallets', 'false'],
    ['--log-level', 'warn'],
  ].flat()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const url = `http://127.0.0.1:${port}`
  try {
    await untilAnswering(url, child, () => output)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return { url, stop: () => stopped(child) }
}

async function untilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`alto exited (${child.exitCode}):\n${output()}`)
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] }),
      })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`alto did not answer within 60 s:\n${output()}`)
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
