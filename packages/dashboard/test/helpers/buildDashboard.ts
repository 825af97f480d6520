import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const packageDir = resolve(fileURLToPath(new URL('../..', import.meta.url)))
export const distDir = join(packageDir, 'dist')

/**
 * Builds the dashboard with Vite when dist is missing or older than a source file, so `pnpm test`
 * works on a fresh clone (dist is not committed) and never tests a stale build.
 */
export function ensureDashboardBuilt(): void {
  const index = join(distDir, 'index.html')
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0
  const sources = [
    join(packageDir, 'index.html'),
    join(packageDir, 'vite.config.ts'),
    ...walk(join(packageDir, 'src')),
  ]
  if (builtAt > 0 && sources.every((file) => statSync(file).mtimeMs <= builtAt)) return
  execFileSync(
    process.execPath,
    [join(packageDir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: packageDir,
      stdio: 'inherit',
    },
  )
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}
