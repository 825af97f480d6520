import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { AgentWalletConfig } from '@agentwallet/core'
import { parseEther } from 'viem'
import { type BenchServer, callServer, startBenchServer } from './benchServer.js'

/** What a forked bench server tells its parent once it listens. */
type Ready = { url: string; adminKey: string; wallets: string[]; recipient: string }

export type ForkedBenchServer = Ready & {
  call: BenchServer['call']
  /** CPU time (user + system, ms) the server's process has used so far: all its threads. */
  cpuMs(): Promise<number>
  close(): Promise<void>
}

/**
 * A bench server (`startBenchServer`) in a process of its own, with `wallets` wallets funded with
 * 10 ETH each: two servers compared side by side do not share a heap, a garbage collector or an
 * event loop, and each one's CPU time is its own (`cpuMs`). The parent drives it over HTTP.
 * Config is JSON (rules, `audit: false`, …).
 * @example const on = await forkBenchServer({ defaultTenantRules: rules }, { wallets: 10 })
 */
export async function forkBenchServer(
  config: Partial<AgentWalletConfig>,
  { wallets }: { wallets: number },
): Promise<ForkedBenchServer> {
  const child = fork(fileURLToPath(import.meta.url), ['child', JSON.stringify({ config, wallets })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ready = await answer<Ready>(child, undefined)
  return {
    ...ready,
    call: callServer(ready.url, ready.adminKey),
    cpuMs: () => answer<number>(child, 'cpu'),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send('close')
      await exited
    },
  }
}

/** Sends `message` (if any) and waits for the child's next message; fails if it exits first. */
function answer<T>(child: ChildProcess, message: string | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`bench server exited (${code})`))
    child.once('exit', exited)
    child.once('message', (reply) => {
      child.off('exit', exited)
      resolve(reply as T)
    })
    if (message) child.send(message)
  })
}

async function serve({ config, wallets }: { config: Partial<AgentWalletConfig>; wallets: number }) {
  const server = await startBenchServer(config)
  const addresses: string[] = []
  for (let index = 0; index < wallets; index++) {
    const { wallet } = await server.agentWallet.createWallet({ agentName: `bench-${index}` })
    await server.devnet.faucet(wallet.address, parseEther('10'))
    addresses.push(wallet.address)
  }
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage()
      process.send!((user + system) / 1000)
    } else if (message === 'close') {
      await server.close()
      process.exit(0)
    }
  })
  const ready: Ready = {
    url: server.server.url,
    adminKey: server.adminKey,
    wallets: addresses,
    recipient: server.devnet.accounts[9]!.address,
  }
  process.send!(ready)
}

if (process.argv[2] === 'child' && process.send) await serve(JSON.parse(process.argv[3]!))
