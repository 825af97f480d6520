import { join } from 'node:path'
import {
  type AgentWallet,
  type ChainConfig,
  createAgentWallet,
  loadOrCreateMasterKey,
  masterKeyFromEnv,
  publicChains,
  type ScreeningSource,
  zeroExQuoteSource,
} from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createSolanaDevnet, type SolanaDevnet } from '@agentwallet/solana-devnet'
import { auditKeyFromEnv } from './auditCommand.js'
import { CliError } from './cliError.js'
import { holdDataDirs } from './holdDataDir.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { openStorage } from './openStorage.js'
import { openVault } from './openVault.js'
import { withOperatorMarks } from './readAddressBook.js'
import { resolveChains } from './resolveChains.js'

export type Runtime = {
  agentWallet: AgentWallet
  devnet: Devnet | undefined
  /** The embedded Solana devnet (chain `solana`), beside `devnet` on the defaults. */
  solanaDevnet: SolanaDevnet | undefined
  close(): Promise<void>
}

export type OpenAgentWalletOptions = {
  /**
   * The explorer of chains that have none of their own (the devnet, a node that is no known public
   * chain): read at each link, since a server learns its address only once it listens.
   */
  localExplorerUrl?: (() => string | undefined) | undefined
  /** Told what background work (the tracker, webhooks) could not do: the server logs it. */
  onBackgroundError?: ((error: unknown) => void) | undefined
}

/**
 * The composition root of the CLI: storage, master key (env or a 0600 file in the data dir),
 * chains (configured RPC URLs, or the persistent embedded devnet) and the AgentWallet over them.
 * `agentwallet <command>` holds the data dir (and the embedded chain's) first, until `close()`.
 * @example const { agentWallet } = await openAgentWallet(config, process.env, 'serve')
 */
export async function openAgentWallet(
  config: ServerConfig,
  env: Env,
  command: string,
  options: OpenAgentWalletOptions = {},
): Promise<Runtime> {
  const named = Object.entries(config.chains)
  if (config.storage === 'postgres') assertReplicaReady(named.length, env)
  const configured = named.length > 0 ? Object.keys(config.chains) : ['devnet']
  assertKnownChains('--finality-depth', Object.keys(config.finalityDepth.byChain), configured)
  assertKnownChains('--address-book', Object.keys(config.addressBooks), configured)
  assertKnownChains('--dev-chain', config.devChains, configured)
  const durable = config.storage !== 'memory'
  // `agentwallet devnet` holds only the chain's dir: it may serve the chain to a server on this data dir.
  const dirs =
    durable && named.length === 0
      ? [config.dataDir, join(config.dataDir, 'devnet'), join(config.dataDir, 'solana-devnet')]
      : [config.dataDir]
  const lock = holdDataDirs(dirs, command, { create: durable })
  const storage = await openStorage(config).catch((error: unknown) => {
    lock.release()
    throw error
  })
  let closeVault = async () => {}
  let solanaDevnet: SolanaDevnet | undefined
  try {
    const opened = await openVault(config, env, storage)
    closeVault = opened.close
    const masterKey =
      config.storage === 'memory'
        ? masterKeyFromEnv(env)
        : (masterKeyFromEnv(env) ?? (await loadOrCreateMasterKey({ dataDir: config.dataDir })))
    // Checkpoints are signed with it; replicas should share it (AGENTWALLET_AUDIT_KEY), or each signs with its own.
    const auditKey =
      config.storage === 'memory'
        ? auditKeyFromEnv(env)
        : (auditKeyFromEnv(env) ??
          (await loadOrCreateMasterKey({ dataDir: config.dataDir, fileName: 'audit.key' })))
    const devnet =
      named.length === 0
        ? await createDevnet({
            dataDir: config.storage === 'memory' ? undefined : join(config.dataDir, 'devnet'),
            blockTime: config.blockTime,
          })
        : undefined
    solanaDevnet = devnet
      ? await createSolanaDevnet({
          dataDir: config.storage === 'memory' ? undefined : join(config.dataDir, 'solana-devnet'),
        })
      : undefined
    const chains: Record<string, ChainConfig> =
      devnet && solanaDevnet
        ? {
            devnet: {
              provider: devnet.provider,
              chainId: devnet.chain.id,
              contracts: devnet.addressBook,
              pollingIntervalMs: 50,
              explorerUrl: options.localExplorerUrl,
            },
            solana: {
              family: 'solana',
              transport: solanaDevnet.transport,
              addressBook: solanaDevnet.addressBook,
              pollingIntervalMs: 50,
            },
          }
        : withLocalExplorer(await resolveChains(config.chains), options.localExplorerUrl)
    const agentWallet = await createAgentWallet({
      chains: withFinalityDepths(withOperatorMarks(chains, config), config.finalityDepth.byChain),
      finalityDepth: config.finalityDepth.all,
      storage,
      vault: opened.vault,
      masterKey,
      audit: {
        key: auditKey,
        checkpointEvery: config.audit.checkpointEvery,
        anchor: config.audit.anchor,
        timestamp: config.audit.timestampUrl ? { url: config.audit.timestampUrl } : undefined,
      },
      webhooks: { allowPrivateTargets: config.allowPrivateWebhooks },
      quoteSources: config.zeroEx ? [zeroExQuoteSource(config.zeroEx)] : [],
      screening: config.blockaid ? { sources: [await blockaidSource(config.blockaid)] } : undefined,
      ...config.feeBumping,
      paymaster: ({ tenantId, chain }) => config.paymasters[tenantId]?.[chain],
      onBackgroundError: options.onBackgroundError,
    })
    return {
      agentWallet,
      devnet,
      solanaDevnet,
      async close() {
        await agentWallet.close()
        await devnet?.close()
        await solanaDevnet?.close()
        await closeVault()
        await storage.close()
        lock.release()
      },
    }
  } catch (error) {
    await solanaDevnet?.close()
    await closeVault()
    await storage.close()
    lock.release()
    throw error
  }
}

/** Public chains keep their explorers; the others get the local one, where there is one. */
function withLocalExplorer(
  chains: Record<string, ChainConfig>,
  explorerUrl: OpenAgentWalletOptions['localExplorerUrl'],
): Record<string, ChainConfig> {
  if (!explorerUrl) return chains
  return Object.fromEntries(
    Object.entries(chains).map(([name, chain]) => [
      name,
      publicChains[name] || chain.explorerUrl ? chain : { ...chain, explorerUrl },
    ]),
  )
}

/** A per-chain setting may name only chains the server runs on (checked before any starts). */
function assertKnownChains(flag: string, names: readonly string[], configured: readonly string[]): void {
  const unknown = names.filter((name) => !configured.includes(name))
  if (unknown.length > 0)
    throw new CliError(
      `${flag} names chains that are not configured: ${unknown.join(', ')} (configured: ${configured.join(', ')})`,
    )
}

/** Each chain named in `--finality-depth name=blocks` with that depth. */
function withFinalityDepths(
  chains: Record<string, ChainConfig>,
  byChain: Record<string, number>,
): Record<string, ChainConfig> {
  return Object.fromEntries(
    Object.entries(chains).map(([name, chain]) => [
      name,
      byChain[name] === undefined ? chain : { ...chain, finalityDepth: byChain[name] },
    ]),
  )
}

/**
 * Postgres storage means replicas: they must share one chain (an embedded devnet per process would
 * give each its own nonces and balances) and one master key (a key file per data dir would differ).
 */
function assertReplicaReady(chainCount: number, env: Env): void {
  if (chainCount === 0)
    throw new CliError(
      '--storage postgres needs --chain name=rpcUrl: replicas share one chain (e.g. `agentwallet devnet`, then --chain devnet=http://127.0.0.1:8545)',
    )
  if (!env.AGENTWALLET_MASTER_KEY)
    throw new CliError(
      '--storage postgres needs AGENTWALLET_MASTER_KEY, the same on every replica (wallet keys are sealed with it)',
    )
}

/** Blockaid's scanning from its optional package (`@agentwallet/screening-blockaid`), named `blockaid`. */
async function blockaidSource(blockaid: NonNullable<ServerConfig['blockaid']>): Promise<ScreeningSource> {
  const { blockaidScreening } = await import('@agentwallet/screening-blockaid').catch((error: unknown) => {
    throw new CliError(
      `AGENTWALLET_BLOCKAID_API_KEY needs the package @agentwallet/screening-blockaid (npm install @agentwallet/screening-blockaid): ${error instanceof Error ? error.message : String(error)}`,
    )
  })
  return blockaidScreening({ apiKey: blockaid.apiKey, baseURL: blockaid.baseUrl, chains: blockaid.chains })
}
