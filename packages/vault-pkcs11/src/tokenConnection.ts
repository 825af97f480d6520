import { BaseError } from '@agentwallet/core'
import type * as Pkcs11js from 'pkcs11js'
import { goneCodes, isPkcs11Code, pkcs11CodeOf, pkcs11Codes } from './pkcs11Codes.js'
import {
  initializePkcs11Module,
  loadPkcs11Module,
  type Pkcs11Module,
  restartPkcs11Module,
} from './pkcs11Module.js'

export type TokenSelector =
  | { slot: number; tokenLabel?: undefined }
  | { tokenLabel: string; slot?: undefined }

export type TokenConnectionOptions = TokenSelector & {
  /** Path of the PKCS#11 library, e.g. /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so. */
  module: string
  /** The user PIN. */
  pin: string
  /** Sessions kept open and used in parallel (default 4). */
  sessions?: number | undefined
}

/** What one unit of work on the token gets: the library and a logged-in session of its own. */
export type TokenSession = {
  lib: Pkcs11js.PKCS11
  binding: typeof Pkcs11js
  session: Pkcs11js.Handle
  /** Grows each time the sessions are opened anew: object handles of an older one are stale. */
  generation: number
}

type Open = {
  generation: number
  slot: Pkcs11js.Handle
  handles: Pkcs11js.Handle[]
  free: Pkcs11js.Handle[]
  waiting: Array<(session: Pkcs11js.Handle) => void>
}

export type TokenConnection = {
  /** Runs `work` on a pooled session; a token that is gone rejects with `vault_unavailable`. */
  use<T>(work: (token: TokenSession) => T | Promise<T>): Promise<T>
  /** Asks the token for its state: resolves when it answers, rejects `vault_unavailable` when not. */
  probe(): Promise<void>
  close(): Promise<void>
}

/**
 * A pool of logged-in sessions on one token, opened on first use and opened again after the token
 * went away and came back. Each session serves one unit of work at a time.
 * @example const token = tokenConnection({ module, tokenLabel: 'agentwallet', pin }); await token.probe()
 */
export function tokenConnection(options: TokenConnectionOptions): TokenConnection {
  const size = Math.max(1, options.sessions ?? 4)
  let module: Pkcs11Module | undefined
  let open: Open | undefined
  let opening: Promise<Open> | undefined
  // An HSM may lock the user after a few wrong PINs: once refused, the PIN is not tried again.
  let refusedPin: BaseError | undefined

  const unavailable = (cause: unknown) => {
    const code = pkcs11CodeOf(cause)
    return new BaseError('vault_unavailable', 'The PKCS#11 token is not available', {
      details: code === undefined ? undefined : { code },
      cause,
    })
  }

  const findSlot = (lib: Pkcs11js.PKCS11): Pkcs11js.Handle | undefined =>
    lib
      .C_GetSlotList(true)
      .find((slot) =>
        options.tokenLabel === undefined
          ? slot.readUIntLE(0, Math.min(6, slot.length)) === options.slot
          : lib.C_GetTokenInfo(slot).label.trim() === options.tokenLabel,
      )

  const connect = (): Open => {
    module ??= loadPkcs11Module(options.module)
    initializePkcs11Module(module)
    const { lib, binding } = module
    const slot = findSlot(lib)
    if (!slot) {
      // The library lists tokens when it starts: start it again on the next try.
      restartPkcs11Module(module, module.generation)
      throw unavailable(undefined)
    }
    const handles: Pkcs11js.Handle[] = []
    try {
      for (let i = 0; i < size; i++) {
        handles.push(lib.C_OpenSession(slot, binding.CKF_RW_SESSION | binding.CKF_SERIAL_SESSION))
      }
      login(lib, binding, handles[0]!, options.pin)
    } catch (error) {
      for (const handle of handles) closeQuietly(lib, handle)
      throw error
    }
    return { generation: module.generation, slot, handles, free: [...handles], waiting: [] }
  }

  const current = async (): Promise<Open> => {
    if (open && module && open.generation === module.generation) return open
    if (refusedPin) throw refusedPin
    open = undefined
    opening ??= Promise.resolve()
      .then(connect)
      .finally(() => {
        opening = undefined
      })
    try {
      open = await opening
      return open
    } catch (error) {
      throw classify(error, undefined)
    }
  }

  /** Drops the sessions and, when the token itself is gone, restarts the library so it looks again. */
  const classify = (error: unknown, failed: Open | undefined): unknown => {
    if (error instanceof BaseError) return error
    const code = pkcs11CodeOf(error)
    if (code === pkcs11Codes.CKR_PIN_INCORRECT || code === pkcs11Codes.CKR_PIN_LOCKED) {
      refusedPin = new BaseError('vault_error', 'The PKCS#11 token refused the PIN', {
        details: { code },
        cause: error,
      })
      return refusedPin
    }
    const gone = (code !== undefined && goneCodes.has(code)) || !tokenAnswers(failed)
    if (!gone) {
      if (code === undefined) return error
      return new BaseError('vault_error', 'The PKCS#11 token refused the call', {
        details: { code },
        cause: error,
      })
    }
    if (module) restartPkcs11Module(module, failed?.generation ?? module.generation)
    if (open === failed) open = undefined
    return unavailable(error)
  }

  const tokenAnswers = (failed: Open | undefined): boolean => {
    if (!failed || !module) return false
    try {
      module.lib.C_GetTokenInfo(failed.slot)
      return true
    } catch {
      return false
    }
  }

  const acquire = (state: Open): Promise<Pkcs11js.Handle> => {
    const session = state.free.pop()
    if (session) return Promise.resolve(session)
    return new Promise((resolve) => state.waiting.push(resolve))
  }

  const release = (state: Open, session: Pkcs11js.Handle) => {
    const next = state.waiting.shift()
    if (next) next(session)
    else state.free.push(session)
  }

  return {
    async use(work) {
      const state = await current()
      const session = await acquire(state)
      try {
        const { lib, binding } = module!
        return await work({ lib, binding, session, generation: state.generation })
      } catch (error) {
        throw classify(error, state)
      } finally {
        release(state, session)
      }
    },
    async probe() {
      const state = await current()
      try {
        module!.lib.C_GetTokenInfo(state.slot)
        module!.lib.C_GetSessionInfo(state.handles[0]!)
      } catch (error) {
        throw classify(error, state)
      }
    },
    async close() {
      const state = open
      open = undefined
      if (!state || !module || state.generation !== module.generation) return
      for (const handle of state.handles) closeQuietly(module.lib, handle)
    },
  }
}

/** Login belongs to the application, not the session: one logs every session in (maybe already done). */
function login(lib: Pkcs11js.PKCS11, binding: typeof Pkcs11js, session: Pkcs11js.Handle, pin: string): void {
  try {
    lib.C_Login(session, binding.CKU_USER, pin)
  } catch (error) {
    if (!isPkcs11Code(error, pkcs11Codes.CKR_USER_ALREADY_LOGGED_IN)) throw error
  }
}

function closeQuietly(lib: Pkcs11js.PKCS11, session: Pkcs11js.Handle): void {
  try {
    lib.C_CloseSession(session)
  } catch {
    // A session the token already dropped is closed.
  }
}
