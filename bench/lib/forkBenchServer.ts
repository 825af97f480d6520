import { type ChildProcess, fork } from 'node:child_process'
import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import type { AgentWalletConfig } from '@agentwallet/core'
import { createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type BenchServer, callServer, startBenchServer } from './benchServer.js'
import { type Attribution, attribute, byFamily, byFunction, byPlace, type CpuProfile } from './cpuProfile.js'
import { type ThreadCpu, threadCpu } from './threadCpu.js'

/** What a forked bench server tells its parent once it listens. */
type Ready = { url: string; adminKey: string; wallets: string[]; recipient: string }

export type ForkedBenchServer = Ready & {
  call: BenchServer['call']
  /** CPU time (user + system, ms) the server's process has used so far: all its threads. */
  cpuMs(): Promise<number>
  /** The same by kind of thread (`threadCpu`: main, helpers, evm, total). */
  threadCpu(): Promise<ThreadCpu>
  /** Raw viem in the server's process, on its devnet: `count` sends in a row from one account; ms. */
  rawViem(count: number): Promise<number>
  /** Starts profiling the server's main thread. */
  startProfile(): Promise<void>
  /** Stops it: self time (ms) by place and by family (`attribute`), and by function (`byFunction`). */
  stopProfile(): Promise<{ byPlace: Attribution; byFamily: Attribution; byFunction: Attribution }>
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
    threadCpu: () => answer<ThreadCpu>(child, 'threads'),
    rawViem: (count) => answer<number>(child, { raw: count }),
    startProfile: () => answer<void>(child, 'profile'),
    stopProfile: () => answer(child, 'profiled'),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send('close')
      await exited
    },
  }
}

/** Sends `message` (if any) and waits for the child's next message; fails if it exits first. */
function answer<T>(child: ChildProcess, message: string | { raw: number } | undefined): Promise<T> {
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
  const raw = rawViemLoop(server)
  let profiling: Session | undefined
  process.on('message', async (message: string | { raw: number }) => {
    if (typeof message === 'object') {
      process.send!(await raw(message.raw))
    } else if (message === 'cpu') {
      const { user, system } = process.cpuUsage()
      process.send!((user + system) / 1000)
    } else if (message === 'threads') {
      process.send!(threadCpu())
    } else if (message === 'profile') {
      profiling = new Session()
      profiling.connect()
      await profiling.post('Profiler.enable')
      await profiling.post('Profiler.setSamplingInterval', { interval: 200 })
      await profiling.post('Profiler.start')
      process.send!('started')
    } else if (message === 'profiled' && profiling) {
      const { profile } = (await profiling.post('Profiler.stop')) as unknown as { profile: CpuProfile }
      profiling.disconnect()
      profiling = undefined
      process.send!({
        byPlace: attribute(profile, byPlace),
        byFamily: attribute(profile, byFamily),
        byFunction: byFunction(profile).slice(0, 40),
      })
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

/** Raw viem on the server's devnet: one account's sends in a row (nonce, gas and fees given); ms. */
function rawViemLoop(server: BenchServer) {
  const account = privateKeyToAccount(server.devnet.accounts[3]!.privateKey)
  const client = createWalletClient({
    account,
    chain: server.devnet.chain,
    transport: custom(server.devnet.provider, { retryCount: 0 }),
  })
  const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
  const recipient = server.devnet.accounts[9]!.address
  let nonce = 0
  return async (count: number): Promise<number> => {
    const started = performance.now()
    for (let i = 0; i < count; i++)
      await client.sendTransaction({ to: recipient, value: 1n, nonce: nonce++, gas: 21_000n, ...fees })
    return performance.now() - started
  }
}

if (process.argv[2] === 'child' && process.send) await serve(JSON.parse(process.argv[3]!))
