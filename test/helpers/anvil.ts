import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import {
  connectDevnet,
  type Devnet,
  type DevnetAddressBook,
  deployProtocolSet,
  devnetAccounts,
  httpProvider,
} from '@agentwallet/devnet'

/** A running anvil on 127.0.0.1, started by a test: its URL, and `close()` kills it. */
export type Anvil = { url: string; close(): Promise<void> }

/**
 * The anvil binary of the `@foundry-rs/anvil` devDependency: it sits in the platform package
 * (`@foundry-rs/anvil-linux-amd64`), which pnpm places beside `@foundry-rs/anvil`, so it is resolved
 * from there (`.bin/anvil` is a node wrapper, one process more).
 */
export function anvilBinary(): string {
  const wrapper = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json')
  const platform = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const manifest = createRequire(wrapper).resolve(`${platform}/package.json`)
  return join(manifest, '..', 'bin', 'anvil')
}

/**
 * Starts anvil on a free port (its default chain id 31337 and the `test … junk` accounts) and
 * resolves once it listens. `args` are anvil's own flags (`--no-mining`, `--block-time 1`).
 * @example const anvil = await startAnvil(); …; await anvil.close()
 */
export async function startAnvil(args: readonly string[] = []): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--port', '0', '--host', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const listening = /Listening on ([\d.]+:\d+)/.exec(seen)
      if (!listening) return
      child.stdout?.off('data', onData)
      resolve(`http://${listening[1]}`)
    }
    child.stdout?.on('data', onData)
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`anvil exited (${code}) before it listened: ${seen.slice(-500)}`)),
    )
  })
  // Anvil logs every request: read and dropped, so a full pipe never blocks it.
  child.stdout?.resume()
  child.stderr?.resume()
  // A worker that dies before its afterAll leaves no anvil behind.
  const orphaned = () => child.kill('SIGKILL')
  process.once('exit', orphaned)
  return {
    url,
    close: async () => {
      process.off('exit', orphaned)
      await stop(child)
    },
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

/**
 * Anvil with the devnet's protocol set deployed onto it (`deployProtocolSet`, funded from anvil's
 * first account), as a {@link Devnet}: tests written against our devnet run on it unchanged.
 * `close()` kills the node.
 * @example const devnet = await startAnvilDevnet(); const aw = await agentWalletOn(devnet)
 */
export async function startAnvilDevnet(): Promise<Devnet & { url: string }> {
  // Automining while the set deploys; a test turns mining off afterwards (`withoutAutomine`).
  const anvil = await startAnvil()
  try {
    const addressBook: DevnetAddressBook = await deployProtocolSet(httpProvider(anvil.url), {
      fundingKey: devnetAccounts[0]!.privateKey,
    })
    const devnet = await connectDevnet({ rpcUrl: anvil.url, addressBook })
    return { ...devnet, url: anvil.url, close: anvil.close }
  } catch (error) {
    await anvil.close()
    throw error
  }
}
