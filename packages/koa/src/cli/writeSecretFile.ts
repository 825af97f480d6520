import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** Writes a secret readable by the owner only (0600), replacing any previous content. */
export function writeSecretFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  writeFileSync(path, content, { mode: 0o600 })
  // writeFileSync keeps the mode of an existing file: force it.
  chmodSync(path, 0o600)
}
