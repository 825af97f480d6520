import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memoryStorage } from '@agentwallet/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type FakeAwsKms, startFakeAwsKms } from '../../../test/helpers/fakeAwsKms.js'
import { type FakeGcpKms, startFakeGcpKms } from '../../../test/helpers/fakeGcpKms.js'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openVault } from '../src/cli/openVault.js'

const dir = mkdtempSync(join(tmpdir(), 'agentwallet-kms-config-'))
let aws: FakeAwsKms
let gcp: FakeGcpKms
let awsEnv: Record<string, string>
let gcpEnv: Record<string, string>
let configFile: string
beforeAll(async () => {
  aws = await startFakeAwsKms()
  gcp = await startFakeGcpKms()
  awsEnv = {
    AGENTWALLET_AWS_KMS_ENDPOINT: aws.url,
    AWS_REGION: aws.region,
    AWS_ACCESS_KEY_ID: aws.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: aws.credentials.secretAccessKey,
  }
  const keyFile = join(dir, 'service-account.json')
  writeFileSync(keyFile, gcp.serviceAccount)
  gcpEnv = { GOOGLE_APPLICATION_CREDENTIALS: keyFile, AGENTWALLET_GCP_KMS_ENDPOINT: gcp.url }
  // Settings in the config file's object named after the vault; the endpoint comes from env.
  configFile = join(dir, 'settings.json')
  writeFileSync(
    configFile,
    JSON.stringify({ vault: 'gcp-kms', 'gcp-kms': { keyRing: gcp.keyRing, transport: 'rest' } }),
  )
})
afterAll(async () => {
  await aws?.close()
  await gcp?.close()
})

const open = (argv: string[], env: Record<string, string | undefined> = {}) =>
  openVault(loadConfig(parseCli(['serve', '--data-dir', dir, ...argv]).values, env), env, memoryStorage())

it('serve opens a KMS vault that answers its probe, with settings from env over the config file', async () => {
  const opened = await open(['--vault', 'aws-kms'], awsEnv)
  expect(opened.vault).toMatchObject({ name: 'aws-kms', capabilities: { exportable: false } })
  expect(opened.vault?.exportKey).toBeUndefined()
  expect(aws.calls.ListKeys).toBe(1)
  expect((await open(['--config', configFile], gcpEnv)).vault?.name).toBe('gcp-kms')
  expect(gcp.calls.GetKeyRing).toBe(1)
})

it('stops the start on a KMS it cannot use: no key ring, a bad setting, wrong credentials, no answer', async () => {
  const refusal = async (argv: string[], env: Record<string, string | undefined> = {}) =>
    open(argv, env).then(
      () => 'opened',
      (error: unknown) => (error instanceof CliError ? 'refused' : String(error)),
    )
  expect(await refusal(['--vault', 'gcp-kms'], gcpEnv)).toBe('refused')
  expect(await refusal(['--vault', 'gcp-kms'], { ...gcpEnv, AGENTWALLET_GCP_KMS_KEY_RING: 'agents' })).toBe(
    'refused',
  )
  expect(
    await refusal(['--config', configFile], { ...gcpEnv, AGENTWALLET_GCP_KMS_TRANSPORT: 'pigeon' }),
  ).toBe('refused')
  expect(
    await refusal(['--vault', 'aws-kms'], { ...awsEnv, AGENTWALLET_AWS_KMS_ENDPOINT: 'not a url' }),
  ).toBe('refused')
  expect(await refusal(['--vault', 'aws-kms'], { ...awsEnv, AWS_SECRET_ACCESS_KEY: 'wrong' })).toBe('refused')
  aws.fault = 'throttle'
  try {
    expect(await refusal(['--vault', 'aws-kms'], awsEnv)).toBe('refused')
  } finally {
    aws.fault = undefined
  }
})
