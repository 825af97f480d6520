import { randomUUID } from 'node:crypto'
import {
  type AgentWalletContext,
  callOperation,
  defaultTenantId,
  operations,
  type Principal,
} from '@agentwallet/core'
import { CliError } from './cliError.js'
import { holdDataDir } from './holdDataDir.js'
import type { ParsedArgs, ServerConfig } from './loadConfig.js'
import { openStorage } from './openStorage.js'
import type { Print } from './serve.js'

/**
 * `agentwallet keys create|list|revoke`: manages API keys directly in the data dir's storage
 * (the operator's shell is the authority here; no server needs to run).
 * @example await keys(['create'], { name: 'bot', role: 'agent' }, config, console.log)
 */
export async function keys(
  rest: string[],
  values: ParsedArgs['values'],
  config: ServerConfig,
  print: Print,
): Promise<void> {
  if (config.storage === 'memory')
    throw new CliError('keys needs durable storage: memory storage dies with each process')
  // SQLite lives in the data dir (Postgres does not): no writing into one a server holds.
  const lock = config.storage === 'sqlite' ? holdDataDir(config.dataDir, 'keys') : undefined
  const storage = await openStorage(config).catch((error: unknown) => {
    lock?.release()
    throw error
  })
  // The key operations read storage, the clock and ids only: no chain, vault or policy is opened here.
  const ctx = {
    storage,
    now: () => new Date(),
    newId: (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
    options: {},
  } as unknown as AgentWalletContext
  const operator: Principal = { tenantId: values.tenant ?? defaultTenantId, id: 'cli', role: 'admin' }
  try {
    const [action, id] = rest
    if (action === 'create') {
      if (!values.name)
        throw new CliError('keys create needs --name <name> (and --role agent|approver|admin)')
      const { apiKey, key } = await callOperation(ctx, operator, operations.createApiKey, {
        name: values.name,
        role: values.role ?? 'agent',
      })
      print(
        `Created ${apiKey.role} key ${apiKey.id} (${apiKey.name}) in tenant ${apiKey.tenantId}. Shown once:`,
      )
      print(key)
    } else if (action === 'list') {
      const { apiKeys } = await callOperation(ctx, operator, operations.listApiKeys, {})
      for (const k of apiKeys)
        print(
          `${k.id}  ${k.prefix}…  ${k.role.padEnd(8)} ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.name}`,
        )
      if (apiKeys.length === 0) print(`No keys in tenant ${operator.tenantId}`)
    } else if (action === 'revoke') {
      if (!id) throw new CliError('keys revoke needs the key id (see keys list)')
      const { apiKey } = await callOperation(ctx, operator, operations.revokeApiKey, {
        keyId: id,
      })
      print(`Revoked ${apiKey.id} (${apiKey.name})`)
    } else {
      throw new CliError(
        'Usage: agentwallet keys create --name <name> [--role agent|approver|admin] [--tenant <id>] | list | revoke <id>',
      )
    }
  } finally {
    await storage.close()
    lock?.release()
  }
}
