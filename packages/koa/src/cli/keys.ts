import { randomUUID } from 'node:crypto'
import { createApiKey, defaultTenantId, listApiKeys, type Principal, revokeApiKey } from '@agentwallet/core'
import { CliError } from './cliError.js'
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
  const storage = await openStorage(config)
  const ctx = {
    storage,
    now: () => new Date(),
    newId: (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
  }
  const operator: Principal = { tenantId: values.tenant ?? defaultTenantId, id: 'cli', role: 'admin' }
  try {
    const [action, id] = rest
    if (action === 'create') {
      if (!values.name)
        throw new CliError('keys create needs --name <name> (and --role agent|approver|admin)')
      const { apiKey, key } = await createApiKey(ctx, operator, {
        name: values.name,
        role: (values.role ?? 'agent') as 'agent',
      })
      print(
        `Created ${apiKey.role} key ${apiKey.id} (${apiKey.name}) in tenant ${apiKey.tenantId}. Shown once:`,
      )
      print(key)
    } else if (action === 'list') {
      const { apiKeys } = await listApiKeys(ctx, operator)
      for (const k of apiKeys)
        print(
          `${k.id}  ${k.prefix}…  ${k.role.padEnd(8)} ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.name}`,
        )
      if (apiKeys.length === 0) print(`No keys in tenant ${operator.tenantId}`)
    } else if (action === 'revoke') {
      if (!id) throw new CliError('keys revoke needs the key id (see keys list)')
      const revoked = await revokeApiKey(ctx, operator, id)
      print(`Revoked ${revoked.id} (${revoked.name})`)
    } else {
      throw new CliError(
        'Usage: agentwallet keys create --name <name> [--role agent|approver|admin] [--tenant <id>] | list | revoke <id>',
      )
    }
  } finally {
    await storage.close()
  }
}
