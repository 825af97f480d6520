import { join } from 'node:path'
import {
  type AgentWallet,
  type ChainConfig,
  createAgentWallet,
  loadOrCreateMasterKey,
  masterKeyFromEnv,
} from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import type { Env, ServerConfig } from './loadConfig.js'
import { openStorage } from './openStorage.js'

export type Runtime = { agentWallet: AgentWallet; devnet: Devnet | undefined; close(): Promise<void> }

/**
 * The composition root of the CLI: storage, master key (env or a 0600 file in the data dir),
 * chains (configured RPC URLs, or the persistent embedded devnet) and the AgentWallet over them.
 * @example const { agentWallet } = await openAgentWallet(config, process.env)
 */
export async function openAgentWallet(config: ServerConfig, env: Env): Promise<Runtime> {
  const storage = openStorage(config)
  try {
    const masterKey =
      config.storage === 'memory'
        ? masterKeyFromEnv(env)
        : (masterKeyFromEnv(env) ?? (await loadOrCreateMasterKey({ dataDir: config.dataDir })))
    const named = Object.entries(config.chains)
    const devnet =
      named.length === 0
        ? await createDevnet({
            dataDir: config.storage === 'memory' ? undefined : join(config.dataDir, 'devnet'),
          })
        : undefined
    const chains: Record<string, ChainConfig> = devnet
      ? {
          devnet: {
            provider: devnet.provider,
            chainId: devnet.chain.id,
            contracts: devnet.addressBook,
            pollingIntervalMs: 50,
          },
        }
      : Object.fromEntries(named.map(([name, rpcUrl]) => [name, { rpcUrl }]))
    const agentWallet = await createAgentWallet({
      chains,
      storage,
      masterKey,
      webhooks: { allowPrivateTargets: config.allowPrivateWebhooks },
    })
    return {
      agentWallet,
      devnet,
      async close() {
        await agentWallet.close()
        await devnet?.close()
        await storage.close()
      },
    }
  } catch (error) {
    await storage.close()
    throw error
  }
}
