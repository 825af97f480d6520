// The key lives in sessionStorage only: gone when the tab closes, never in a URL, a cookie or localStorage.
const storageKey = 'agentwallet.dashboard.apiKey'

export function loadKey(): string | undefined {
  try {
    return sessionStorage.getItem(storageKey) ?? undefined
  } catch {
    return undefined
  }
}

export function saveKey(key: string): void {
  sessionStorage.setItem(storageKey, key)
}

export function forgetKey(): void {
  sessionStorage.removeItem(storageKey)
}
