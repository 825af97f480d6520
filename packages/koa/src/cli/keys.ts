import { randomUUID } from 'node:crypto'
import {
  type AgentWalletContext,
  type apiKeySchema,
  callOperation,
  defaultTenantId,
  operations,
  type Principal,
  type Role,
} from '@agentwallet/core'
import type { z } from 'zod'
import { CliError } from './cliError.js'
import { holdDataDir } from './holdDataDir.js'
import type { Env, ParsedArgs, ServerConfig } from './loadConfig.js'
import { openStorage } from './openStorage.js'
import { callServer, findRunningServer, type RunningServer } from './runningServer.js'
import type { Print } from './serve.js'

type ApiKey = z.infer<typeof apiKeySchema>

/** The three key operations, on storage directly or through a running server. */
type KeyOperations = {
  create(name: string, role: string): Promise<{ apiKey: ApiKey; key: string }>
  list(): Promise<{ apiKeys: ApiKey[] }>
  revoke(keyId: string): Promise<{ apiKey: ApiKey }>
}

export const keysUsage =
  'Usage: agentwallet keys create --name <name> [--role agent|approver|admin] [--tenant <id>] | list | revoke <id>'

/**
 * `agentwallet keys create|list|revoke`: through the running server's API when one holds the data
 * dir (as its root admin), else directly in the data dir's storage (the operator's shell is the
 * authority here; no server needs to run).
 * @example await keys(['create'], { name: 'bot', role: 'agent' }, config, process.env, console.log)
 */
export async function keys(
  rest: string[],
  values: ParsedArgs['values'],
  config: ServerConfig,
  env: Env,
  print: Print,
): Promise<void> {
  const [action, id] = rest
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new CliError(keysUsage)
  if (action === 'create' && !values.name)
    throw new CliError('keys create needs --name <name> (and --role agent|approver|admin)')
  if (action === 'revoke' && !id) throw new CliError('keys revoke needs the key id (see keys list)')
  if (config.storage === 'memory')
    throw new CliError('keys needs durable storage: memory storage dies with each process')
  const server = await findRunningServer(config, env)
  if (server) {
    if (values.tenant && values.tenant !== defaultTenantId)
      throw new CliError(
        '--tenant needs the server stopped: through the server, keys go into the root admin’s tenant',
      )
    return runKeys(action, values, id, throughServer(server), defaultTenantId, print)
  }
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
  const direct: KeyOperations = {
    create: (name, role) =>
      callOperation(ctx, operator, operations.createApiKey, { name, role: role as Role }),
    list: () => callOperation(ctx, operator, operations.listApiKeys, {}),
    revoke: (keyId) => callOperation(ctx, operator, operations.revokeApiKey, { keyId }),
  }
  try {
    await runKeys(action, values, id, direct, operator.tenantId, print)
  } finally {
    await storage.close()
    lock?.release()
  }
}

function throughServer(server: RunningServer): KeyOperations {
  return {
    create: (name, role) => callServer(server, 'POST', '/api-keys', { name, role }),
    list: () => callServer(server, 'GET', '/api-keys'),
    revoke: (keyId) => callServer(server, 'DELETE', `/api-keys/${encodeURIComponent(keyId)}`),
  }
}

async function runKeys(
  action: 'create' | 'list' | 'revoke',
  values: ParsedArgs['values'],
  id: string | undefined,
  keyOperations: KeyOperations,
  tenantId: string,
  print: Print,
): Promise<void> {
  if (action === 'create') {
    const { apiKey, key } = await keyOperations.create(values.name ?? '', values.role ?? 'agent')
    print(
      `Created ${apiKey.role} key ${apiKey.id} (${apiKey.name}) in tenant ${apiKey.tenantId}. Shown once:`,
    )
    print(key)
  } else if (action === 'list') {
    const { apiKeys } = await keyOperations.list()
    for (const k of apiKeys)
      print(
        `${k.id}  ${k.prefix}…  ${k.role.padEnd(8)} ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.name}`,
      )
    if (apiKeys.length === 0) print(`No keys in tenant ${tenantId}`)
  } else {
    const { apiKey } = await keyOperations.revoke(id ?? '')
    print(`Revoked ${apiKey.id} (${apiKey.name})`)
  }
}
