import { createContext } from 'preact'
import { useContext, useEffect, useRef } from 'preact/hooks'
import type { Api } from './api.js'
import type { LiveEvent } from './liveEvents.js'
import type { Role } from './types.js'

export type Listener = (event: LiveEvent) => void

/** What every page gets once signed in. */
export type SignedIn = {
  api: Api
  role: Role
  subscribe(listener: Listener): () => void
  announce(message: string): void
}

export const SignedInContext = createContext<SignedIn | undefined>(undefined)

export function useSignedIn(): SignedIn {
  return useContext(SignedInContext)!
}

/**
 * Calls `reload` when an event whose type starts with one of `prefixes` arrives, coalescing bursts
 * (a send emits several events within milliseconds).
 */
export function useReloadOn(prefixes: readonly string[], reload: () => void): void {
  const { subscribe } = useSignedIn()
  const latest = useRef(reload)
  latest.current = reload
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const off = subscribe((event) => {
      if (!prefixes.some((prefix) => event.type.startsWith(prefix))) return
      clearTimeout(timer)
      timer = setTimeout(() => latest.current(), 60)
    })
    return () => {
      clearTimeout(timer)
      off()
    }
  }, [subscribe, prefixes.join()])
}
