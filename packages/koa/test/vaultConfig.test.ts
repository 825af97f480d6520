import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-vault-config-'))
const keyRing = 'projects/p/locations/europe-west1/keyRings/agents'
const configFile = join(mkdtempSync(join(tmpdir(), 'agentwallet-vault-config-file-')), 'settings.json')
writeFileSync(
  configFile,
  JSON.stringify({ vault: 'gcp-kms', gcpKms: { keyRing, protectionLevel: 'SOFTWARE', transport: 'rest' } }),
)

const vaultOf = (argv: string[], env: Record<string, string> = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env).vault

it('serve reads the vault from the flag over env over the config file, local by default', () => {
  expect(vaultOf([])).toEqual({ kind: 'local' })
  expect(vaultOf(['--config', configFile])).toEqual({
    kind: 'gcp-kms',
    keyRing,
    protectionLevel: 'SOFTWARE',
    transport: 'rest',
    endpoint: undefined,
  })
  expect(vaultOf([], { AGENTWALLET_VAULT: 'aws-kms', AGENTWALLET_AWS_KMS_REGION: 'eu-west-1' })).toEqual({
    kind: 'aws-kms',
    region: 'eu-west-1',
    endpoint: undefined,
  })
  expect(
    vaultOf(['--vault', 'aws-kms', '--config', configFile], {
      AGENTWALLET_AWS_KMS_ENDPOINT: 'http://127.0.0.1:4566',
    }),
  ).toEqual({ kind: 'aws-kms', region: undefined, endpoint: 'http://127.0.0.1:4566' })
})

it('stops the start on an unknown vault, a gcp-kms without a key ring, or a bad setting', () => {
  const refused = (argv: string[], env: Record<string, string> = {}) => {
    try {
      vaultOf(argv, env)
    } catch (error) {
      return error instanceof CliError
    }
    return false
  }
  expect(refused(['--vault', 'keychain'])).toBe(true)
  expect(refused(['--vault', 'gcp-kms'])).toBe(true)
  expect(refused(['--vault', 'gcp-kms'], { AGENTWALLET_GCP_KMS_KEY_RING: 'agents' })).toBe(true)
  expect(
    refused(['--vault', 'gcp-kms'], {
      AGENTWALLET_GCP_KMS_KEY_RING: keyRing,
      AGENTWALLET_GCP_KMS_TRANSPORT: 'carrier-pigeon',
    }),
  ).toBe(true)
  expect(refused(['--vault', 'aws-kms'], { AGENTWALLET_AWS_KMS_ENDPOINT: 'not a url' })).toBe(true)
})
