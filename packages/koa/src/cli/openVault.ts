import type { KeyVault, Storage } from '@agentwallet/core'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'

/** The vault a server runs on; `vault` undefined is core's default, the local vault over storage. */
export type OpenedVault = { vault: KeyVault | undefined; close(): Promise<void> }

const nothingToClose = async () => {}

/**
 * The configured KeyVault (`--vault`): `local` (keys sealed in storage under the master key), or a
 * vault whose keys never leave hardware. Settings come from env over the config file's object named
 * after the kind; secrets (a PIN) from env only. Vault packages with native parts load only here.
 * @example const { vault, close } = await openVault(config, process.env, storage)
 */
export async function openVault(
  config: Pick<ServerConfig, 'vault'>,
  env: Env,
  // The local vault keeps its records in storage; core builds it over the same storage itself.
  _storage: Storage,
): Promise<OpenedVault> {
  switch (config.vault.kind) {
    case 'local':
      return { vault: undefined, close: nothingToClose }
    case 'pkcs11':
      return openPkcs11Vault(config.vault.file, env)
    case 'aws-kms':
    case 'gcp-kms':
      throw new CliError(`--vault ${config.vault.kind} is not built in this branch`)
  }
}

async function openPkcs11Vault(file: Record<string, unknown>, env: Env): Promise<OpenedVault> {
  if (file.pin !== undefined)
    throw new CliError(
      'The PKCS#11 PIN is a secret: set AGENTWALLET_PKCS11_PIN, not "pin" in the config file',
    )
  const module = setting(env.AGENTWALLET_PKCS11_MODULE, file.module)
  const tokenLabel = setting(env.AGENTWALLET_PKCS11_TOKEN_LABEL, file.tokenLabel)
  const slot = setting(env.AGENTWALLET_PKCS11_SLOT, file.slot)
  const pin = env.AGENTWALLET_PKCS11_PIN
  if (!module)
    throw new CliError('--vault pkcs11 needs the PKCS#11 library: AGENTWALLET_PKCS11_MODULE (or "module")')
  if ((tokenLabel === undefined) === (slot === undefined))
    throw new CliError(
      '--vault pkcs11 needs one of AGENTWALLET_PKCS11_TOKEN_LABEL or AGENTWALLET_PKCS11_SLOT (or "tokenLabel" / "slot")',
    )
  if (!pin) throw new CliError('--vault pkcs11 needs the token user PIN in AGENTWALLET_PKCS11_PIN')
  const sessions = integer(setting(env.AGENTWALLET_PKCS11_SESSIONS, file.sessions), 'sessions')
  const { pkcs11KeyVault } = await importPkcs11Package()
  const token = tokenLabel === undefined ? { slot: integer(slot, 'slot') as number } : { tokenLabel }
  const vault = pkcs11KeyVault({ module, pin, sessions, ...token })
  // A wrong PIN or library path is a startup error, not a server that answers 503 to every send.
  await vault.probe().catch((error: unknown) => {
    throw new CliError(`--vault pkcs11: the token cannot be used (${describe(error)})`)
  })
  return { vault, close: () => vault.close() }
}

async function importPkcs11Package(): Promise<typeof import('@agentwallet/vault-pkcs11')> {
  try {
    return await import('@agentwallet/vault-pkcs11')
  } catch (error) {
    throw new CliError(
      `--vault pkcs11 needs the package @agentwallet/vault-pkcs11 (npm install @agentwallet/vault-pkcs11): ${describe(error)}`,
    )
  }
}

function setting(fromEnv: string | undefined, fromFile: unknown): string | undefined {
  const value = fromEnv ?? fromFile
  return value === undefined || value === '' ? undefined : String(value)
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new CliError(`--vault pkcs11: "${name}" must be a whole number`)
  return parsed
}

function describe(error: unknown): string {
  if (error instanceof Error && 'code' in error) return `${String(error.code)}: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
