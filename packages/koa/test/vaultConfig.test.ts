import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memoryStorage } from '@agentwallet/core'
import { expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openVault } from '../src/cli/openVault.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-vault-config-'))
const keyRing = 'projects/p/locations/europe-west1/keyRings/agents'
const configFile = join(mkdtempSync(join(tmpdir(), 'agentwallet-vault-config-file-')), 'settings.json')
writeFileSync(
  configFile,
  JSON.stringify({
    vault: 'gcp-kms',
    'gcp-kms': { keyRing, protectionLevel: 'SOFTWARE', transport: 'rest' },
  }),
)

const configOf = (argv: string[], env: Record<string, string> = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env)
const open = (argv: string[], env: Record<string, string> = {}) =>
  openVault(configOf(argv, env), env, memoryStorage())

it('serve opens a KMS vault from the flag or env, with settings from env over the config file', async () => {
  expect((await open([])).vault).toBeUndefined()
  expect((await open(['--config', configFile])).vault?.name).toBe('gcp-kms')
  const aws = await open([], { AGENTWALLET_VAULT: 'aws-kms', AGENTWALLET_AWS_KMS_REGION: 'eu-west-1' })
  expect(aws.vault).toMatchObject({ name: 'aws-kms', capabilities: { exportable: false } })
  expect(aws.vault?.exportKey).toBeUndefined()
})

it('stops the start on a gcp-kms without a key ring, or a KMS setting it cannot use', async () => {
  const refusal = async (argv: string[], env: Record<string, string> = {}) =>
    open(argv, env).then(
      () => 'opened',
      (error: unknown) => (error instanceof CliError ? 'refused' : String(error)),
    )
  expect(await refusal(['--vault', 'gcp-kms'])).toBe('refused')
  expect(await refusal(['--vault', 'gcp-kms'], { AGENTWALLET_GCP_KMS_KEY_RING: 'agents' })).toBe('refused')
  expect(await refusal(['--config', configFile], { AGENTWALLET_GCP_KMS_TRANSPORT: 'carrier-pigeon' })).toBe(
    'refused',
  )
  expect(await refusal(['--vault', 'aws-kms'], { AGENTWALLET_AWS_KMS_ENDPOINT: 'not a url' })).toBe('refused')
})
