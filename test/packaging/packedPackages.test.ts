import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { readmeLibrarySnippet, repoRoot, snippetOutput } from '../helpers/readmeSnippet.js'

const run = promisify(execFile)

/**
 * The packages a user installs (core, devnet, sqlite, koa, client), the workspace packages koa
 * depends on (solana-devnet, postgres, dashboard, mcp) and the optional KMS vault (vault-kms): packed too, or npm
 * would ask the registry for them. In dependency order: each package's declarations are built
 * against the `dist` of the packages it imports (its own tsconfig.json has no `paths` to sources).
 */
const packed = [
  'core',
  'devnet',
  'solana-devnet',
  'sqlite',
  'postgres',
  'vault-kms',
  'dashboard',
  'client',
  'mcp',
  'koa',
]

// Outside the workspace: nothing of the monorepo's node_modules or tsconfig paths can help.
const work = mkdtempSync(join(tmpdir(), 'agentwallet-packed-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const env = { ...process.env, npm_config_nodedir: '/usr', npm_config_update_notifier: 'false' }

// Packing builds each package (prepack) and npm installs every third-party dependency: minutes on a
// loaded 2-core machine, which is why this file runs after the normal suite (`pnpm test:packaging`).
const installMinutes = 20

it(
  'pnpm pack builds each package; installed from the tarballs in a fresh npm project, the README snippet and `npx agentwallet serve --help` run',
  async () => {
    const tarballs = join(work, 'tarballs')
    mkdirSync(tarballs)
    for (const name of packed)
      await run('pnpm', ['pack', '--pack-destination', tarballs], {
        cwd: join(repoRoot, 'packages', name),
        env,
      })
    const files = readdirSync(tarballs)
    const tarballOf = (name: string) => {
      const file = files.find((f) => f.startsWith(`agentwallet-${name}-`) && f.endsWith('.tgz'))
      if (!file) throw new Error(`pnpm pack made no tarball for ${name}: ${files.join(', ')}`)
      return `file:${join(tarballs, file)}`
    }
    const dependencies = Object.fromEntries(packed.map((name) => [`@agentwallet/${name}`, tarballOf(name)]))
    const app = join(work, 'app')
    mkdirSync(app)
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'fresh-app',
        private: true,
        type: 'module',
        dependencies,
        // Each tarball's own @agentwallet/* dependencies resolve to the tarballs, never the registry.
        overrides: dependencies,
        allowScripts: { 'better-sqlite3': true },
      }),
    )
    await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, env })

    writeFileSync(join(app, 'snippet.mjs'), readmeLibrarySnippet())
    const snippet = await run(process.execPath, ['snippet.mjs'], { cwd: app, env })
    expect(snippet.stdout).toMatch(snippetOutput)

    const help = await run('npx', ['--no-install', 'agentwallet', 'serve', '--help'], { cwd: app, env })
    expect(help.stdout).toMatch(/^Usage: agentwallet serve/)
  },
  installMinutes * 60_000,
)
