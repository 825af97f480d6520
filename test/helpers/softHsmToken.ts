import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Debian's softhsm2 package puts its PKCS#11 library here (scripts/ensure-test-services.sh installs it). */
export const softHsmModule = '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so'

export type SoftHsmToken = {
  module: string
  tokenLabel: string
  pin: string
  /** The SOFTHSM2_CONF file: what a process needs in its env to see this token. */
  conf: string
  /** The env a child process needs to see the token. */
  env: { SOFTHSM2_CONF: string }
  /** Takes the token away (its directory moves aside), as an unplugged HSM. */
  remove(): void
  /** Puts a removed token back. */
  restore(): void
  cleanup(): void
}

/**
 * A fresh SoftHSM2 token in a temp dir. SoftHSM2 reads SOFTHSM2_CONF once per process, at
 * C_Initialize, so this points this process at it (`useInProcess`) before any vault connects: one
 * token per test file (vitest runs each file in its own process).
 * @example const token = createSoftHsmToken({ useInProcess: true }); pkcs11KeyVault({ module: token.module, tokenLabel: token.tokenLabel, pin: token.pin })
 */
export function createSoftHsmToken(options: { label?: string; useInProcess?: boolean } = {}): SoftHsmToken {
  const dir = mkdtempSync(join(tmpdir(), 'aw-softhsm-'))
  const tokenDir = join(dir, 'tokens')
  mkdirSync(tokenDir)
  const conf = join(dir, 'softhsm2.conf')
  writeFileSync(conf, `directories.tokendir = ${tokenDir}\nobjectstore.backend = file\nlog.level = ERROR\n`)
  const tokenLabel = options.label ?? 'agentwallet-test'
  const pin = '246810'
  execFileSync(
    'softhsm2-util',
    ['--init-token', '--free', '--label', tokenLabel, '--so-pin', '13579', '--pin', pin],
    { env: { ...process.env, SOFTHSM2_CONF: conf }, stdio: 'ignore' },
  )
  if (options.useInProcess) process.env.SOFTHSM2_CONF = conf
  const aside = `${tokenDir}-removed`
  return {
    module: softHsmModule,
    tokenLabel,
    pin,
    conf,
    env: { SOFTHSM2_CONF: conf },
    remove: () => renameSync(tokenDir, aside),
    restore: () => renameSync(aside, tokenDir),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
