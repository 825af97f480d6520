import { createRequire } from 'node:module'
import type * as Pkcs11js from 'pkcs11js'
import { isPkcs11Code, pkcs11Codes } from './pkcs11Codes.js'

/**
 * One loaded PKCS#11 library. C_Initialize and C_Finalize act on the whole process, so every vault
 * over the same library shares this: `generation` grows each time the library is started again,
 * and a vault whose sessions belong to an older generation opens new ones.
 */
export type Pkcs11Module = {
  readonly path: string
  readonly lib: Pkcs11js.PKCS11
  readonly binding: typeof Pkcs11js
  generation: number
  initialized: boolean
}

const modules = new Map<string, Pkcs11Module>()

/** The library at `path`, loaded once per process (not yet initialised). */
export function loadPkcs11Module(path: string): Pkcs11Module {
  const known = modules.get(path)
  if (known) return known
  // pkcs11js is CommonJS with a native addon: required here, when a vault first connects.
  const binding = createRequire(import.meta.url)('pkcs11js') as typeof Pkcs11js
  const lib = new binding.PKCS11()
  lib.load(path)
  const loaded: Pkcs11Module = { path, lib, binding, generation: 0, initialized: false }
  modules.set(path, loaded)
  return loaded
}

/** Runs C_Initialize unless this process already did (the token's sessions may be called from threads). */
export function initializePkcs11Module(module: Pkcs11Module): void {
  if (module.initialized) return
  try {
    module.lib.C_Initialize({ flags: module.binding.CKF_OS_LOCKING_OK })
  } catch (error) {
    if (!isPkcs11Code(error, pkcs11Codes.CKR_CRYPTOKI_ALREADY_INITIALIZED)) throw error
  }
  module.initialized = true
}

/**
 * Finalises and initialises the library again, which makes it look for its tokens anew (a token
 * that was removed and is back). Done once per generation however many vaults saw the failure.
 */
export function restartPkcs11Module(module: Pkcs11Module, seenGeneration: number): void {
  if (module.generation !== seenGeneration) return
  module.generation += 1
  if (module.initialized) {
    module.initialized = false
    try {
      module.lib.C_Finalize()
    } catch {
      // Already finalised, or the library cannot say: initialising again is what matters.
    }
  }
}
