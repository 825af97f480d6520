import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memoryStorage } from '@agentwallet/core'
import { afterAll, describe, expect, it } from 'vitest'
import { createSoftHsmToken } from '../../../test/helpers/softHsmToken.js'
import { CliError } from '../src/cli/cliError.js'
import { type Env, loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openVault } from '../src/cli/openVault.js'

const token = createSoftHsmToken({ useInProcess: true })
const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-open-vault-'))
afterAll(() => {
  token.cleanup()
  rmSync(dataDir, { recursive: true, force: true })
})

const configOf = (argv: string[], env: Env = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env)
const pkcs11Env: Env = {
  AGENTWALLET_PKCS11_MODULE: token.module,
  AGENTWALLET_PKCS11_TOKEN_LABEL: token.tokenLabel,
  AGENTWALLET_PKCS11_PIN: token.pin,
}

describe('choosing the vault of `agentwallet serve`', () => {
  it('is local by default, and takes --vault over AGENTWALLET_VAULT over the config file', () => {
    expect(configOf([]).vault).toEqual({ kind: 'local', file: {} })
    const file = join(dataDir, 'vault.json')
    writeFileSync(file, JSON.stringify({ vault: 'pkcs11', pkcs11: { module: '/lib/x.so', slot: 3 } }))
    expect(configOf(['--config', file]).vault).toEqual({
      kind: 'pkcs11',
      file: { module: '/lib/x.so', slot: 3 },
    })
    expect(configOf(['--config', file], { AGENTWALLET_VAULT: 'local' }).vault.kind).toBe('local')
    expect(
      configOf(['--config', file, '--vault', 'gcp-kms'], { AGENTWALLET_VAULT: 'local' }).vault.kind,
    ).toBe('gcp-kms')
    expect(() => configOf(['--vault', 'yubikey'])).toThrow(CliError)
  })

  it('leaves local to core (the default vault over storage) and opens pkcs11 on the token from env', async () => {
    expect((await openVault(configOf([]), {}, memoryStorage())).vault).toBeUndefined()
    const opened = await openVault(configOf(['--vault', 'pkcs11']), pkcs11Env, memoryStorage())
    expect(opened.vault?.name).toBe('pkcs11')
    const address = await opened.vault!.createKey()
    expect(await opened.vault!.hasKey(address)).toBe(true)
    await opened.close()
  })

  it('refuses at startup what cannot work: a PIN in the file, missing settings, a wrong PIN, KMS here', async () => {
    const fileWithPin = join(dataDir, 'pin.json')
    writeFileSync(fileWithPin, JSON.stringify({ pkcs11: { pin: token.pin } }))
    const refused: Array<[string[], Env]> = [
      [['--vault', 'pkcs11', '--config', fileWithPin], pkcs11Env],
      [['--vault', 'pkcs11'], { ...pkcs11Env, AGENTWALLET_PKCS11_MODULE: undefined }],
      [['--vault', 'pkcs11'], { ...pkcs11Env, AGENTWALLET_PKCS11_PIN: undefined }],
      [['--vault', 'pkcs11'], { ...pkcs11Env, AGENTWALLET_PKCS11_SLOT: '0' }],
      [['--vault', 'pkcs11'], { ...pkcs11Env, AGENTWALLET_PKCS11_TOKEN_LABEL: 'no-such-token' }],
      [['--vault', 'pkcs11'], { ...pkcs11Env, AGENTWALLET_PKCS11_PIN: '99999999' }],
      [['--vault', 'aws-kms'], {}],
      [['--vault', 'gcp-kms'], {}],
    ]
    for (const [argv, env] of refused) {
      await expect(openVault(configOf(argv), env, memoryStorage())).rejects.toBeInstanceOf(CliError)
    }
  })
})
