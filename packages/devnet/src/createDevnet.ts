import { mkdirSync } from 'node:fs'
import { lockDataDir } from '@agentwallet/core'
import { type Address, type Hex, parseEther } from 'viem'
import { withAddressBook } from './addressBookRpc.js'
import { createEdrProvider } from './createEdrProvider.js'
import { type DataDirMeta, journalFile, readMeta, writeMeta } from './dataDirMeta.js'
import { type DevnetAddressBook, deployProtocols, upgradeProtocols } from './deployProtocols.js'
import { devnetAccounts, devnetDeployer } from './devnetAccounts.js'
import { type DevnetActions, devnetActions } from './devnetActions.js'
import { devnetChain } from './devnetChain.js'
import { withIntervalMining } from './intervalMining.js'
import { openJournal } from './journal.js'
import { journaledProvider } from './journaledProvider.js'
import { loadSingletonFactoryDeployment } from './loadArtifact.js'
import { replayJournal } from './replayJournal.js'
import { RpcError } from './rpcError.js'
import { type DevnetServer, type ServeOptions, serveDevnet } from './serveDevnet.js'
import type { DevnetProvider } from './types.js'

export type CreateDevnetOptions = {
  /** Keep the chain here across restarts. Without it the chain lives in memory only. */
  dataDir?: string | undefined
  /** How many mnemonic accounts to pre-fund, 1-10 (default 10). */
  accounts?: number | undefined
  /** Genesis balance of each pre-funded account in wei (default 10,000 ETH). */
  accountBalance?: bigint | undefined
  /**
   * Seconds between an ENS commit and its register (default 1; mainnet uses 60), waited out by the
   * wall clock: block timestamps follow it (blocks mined within one second share its timestamp).
   */
  ensMinCommitmentAge?: number | undefined
  /**
   * Seconds between blocks (fractions allowed): sends wait in the pool for the next block, as on a
   * real chain. Default: none, every send is mined at once (automine). Works with `dataDir` too: the
   * blocks are journaled `evm_mine` requests, so a restart replays them as they were.
   */
  blockTime?: number | undefined
}

export type Devnet = DevnetActions & {
  /** EIP-1193 provider: `createPublicClient({ chain: devnet.chain, transport: custom(devnet.provider) })`. */
  provider: DevnetProvider
  chain: typeof devnetChain
  addressBook: DevnetAddressBook
  /** The pre-funded accounts of the test mnemonic (also EDR's `eth_accounts`). */
  accounts: readonly { address: Address; privateKey: Hex }[]
  /** Serves the same chain as JSON-RPC over HTTP on 127.0.0.1. */
  serve(options?: ServeOptions): Promise<DevnetServer>
  close(): Promise<void>
}

const defaultBalance = parseEther('10000')
/** Genesis balance of the deployer, which also seeds the Uniswap pools. */
const deployerBalance = parseEther('1000000')

/**
 * Starts the embedded devnet: an in-process EVM (chain id 31337) with WETH, test tokens, two Uniswap V2
 * venues, Safe 1.4.1, ENS, the ERC-8004 registries, Lido-like staking and price feeds deployed.
 * @example const devnet = await createDevnet(); const client = createPublicClient({ chain: devnet.chain, transport: custom(devnet.provider) })
 */
export async function createDevnet(options: CreateDevnetOptions = {}): Promise<Devnet> {
  const { dataDir } = options
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const unlock = dataDir ? lockDataDir(dataDir, { name: 'devnet', file: 'devnet.lock' }) : () => {}
  try {
    return await startDevnet(options, unlock)
  } catch (error) {
    unlock()
    throw error
  }
}

async function startDevnet(options: CreateDevnetOptions, unlock: () => void): Promise<Devnet> {
  const { dataDir } = options
  const stored = dataDir ? readMeta(dataDir) : undefined
  // A data dir's genesis wins over options: replay only reproduces the chain from the same genesis.
  const meta: DataDirMeta = stored ?? {
    version: 1,
    chainId: devnetChain.id,
    genesisTimestamp: Math.floor(Date.now() / 1000),
    accounts: Math.min(Math.max(options.accounts ?? 10, 1), devnetAccounts.length),
    accountBalance: (options.accountBalance ?? defaultBalance).toString(),
    ensMinCommitmentAge: options.ensMinCommitmentAge ?? 1,
  }
  const accounts = devnetAccounts.slice(0, meta.accounts)
  const factorySigner = loadSingletonFactoryDeployment().signerAddress
  const edr = await createEdrProvider({
    chainId: meta.chainId,
    genesisTimestamp: meta.genesisTimestamp,
    genesisBalances: [
      ...accounts.map(({ address }) => ({ address, balance: BigInt(meta.accountBalance) })),
      { address: devnetDeployer.address, balance: deployerBalance },
      { address: factorySigner, balance: parseEther('1') },
    ],
    ownedKeys: accounts.map(({ privateKey }) => privateKey),
  })

  let inner: DevnetProvider = edr
  if (dataDir) {
    const journal = openJournal(journalFile(dataDir))
    // No address book means the previous start died during set-up, before any user transaction:
    // its partial journal is dropped and set-up runs again.
    if (meta.addressBook) await replayJournal(edr, journal.entries)
    else journal.clear()
    writeMeta(dataDir, meta)
    inner = journaledProvider(edr, journal)
  }

  let closed = false
  const servers = new Set<DevnetServer>()
  const mining = withIntervalMining(inner)
  const provider: DevnetProvider = {
    request(args) {
      if (closed) return Promise.reject(new RpcError({ code: 4900, message: 'devnet is closed' }))
      return mining.provider.request(args)
    },
  }
  // A replayed chain that last ran on a timer comes back without it: set-up needs each send mined.
  if (!(await provider.request({ method: 'hardhat_getAutomine' }))) await automineAgain(provider)

  const deployment = {
    chainId: meta.chainId,
    deployerKey: devnetDeployer.privateKey,
    ensMinCommitmentAge: meta.ensMinCommitmentAge,
  }
  const addressBook = meta.addressBook
    ? await upgradeProtocols(provider, deployment, meta.addressBook)
    : await deployProtocols(provider, deployment)
  if (dataDir && addressBook !== meta.addressBook) writeMeta(dataDir, { ...meta, addressBook })
  if (options.blockTime !== undefined && options.blockTime > 0) {
    await provider.request({ method: 'evm_setAutomine', params: [false] })
    await provider.request({
      method: 'evm_setIntervalMining',
      params: [Math.round(options.blockTime * 1000)],
    })
  }

  return {
    provider,
    chain: devnetChain,
    addressBook,
    accounts,
    ...devnetActions(provider, meta.chainId, addressBook),
    async serve(serveOptions) {
      const server = await serveDevnet(withAddressBook(provider, addressBook), serveOptions)
      servers.add(server)
      return {
        url: server.url,
        close: async () => {
          servers.delete(server)
          await server.close()
        },
      }
    },
    async close() {
      if (closed) return
      closed = true
      mining.stop()
      unlock()
      await Promise.all([...servers].map((server) => server.close()))
      servers.clear()
    },
  }
}

/** Automine on again; the transactions left in the pool (sent after the last timed block) mined first. */
async function automineAgain(provider: DevnetProvider): Promise<void> {
  await provider.request({ method: 'evm_setAutomine', params: [true] })
  const pending = await provider.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })
  if ((pending?.transactions?.length ?? 0) > 0) await provider.request({ method: 'evm_mine', params: [] })
}
