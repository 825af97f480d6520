import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

const root = fileURLToPath(new URL('../..', import.meta.url))
const main = join(root, 'packages/koa/src/cli/main.ts')

/**
 * The `agentwallet` CLI as tests start it, `node <entry>`: the CLI bundled from the workspace's
 * sources (`bundleCli`). Built once per change of the sources and shared by every test process of a
 * run. `--version` on it takes ~1 s, against 8–11 s through `node --import tsx
 * packages/koa/src/cli/main.ts` (tsx compiles some 700 source files, and Node resolves viem's and
 * zod's hundreds, in every child).
 * @example spawn(process.execPath, [cliEntry(), 'serve', '--port', '0'])
 */
export function cliEntry(): string {
  cached ??= builtCli()
  return cached
}

let cached: string | undefined

function builtCli(): string {
  const dir = join(root, 'node_modules/.cache/agentwallet-cli', sourcesKey())
  const entry = join(dir, 'main.mjs')
  if (existsSync(entry)) return entry
  // esbuild's plugins need its async API: a child builds, this process waits (once per change).
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return entry
}

/** Names the sources' state: every workspace source file's path, size and mtime, and the lockfile's. */
function sourcesKey(): string {
  const hash = createHash('sha256')
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (!entry.name.endsWith('.test.ts')) {
        const { size, mtimeMs } = statSync(path)
        hash.update(`${relative(root, path)}\n${size}\n${mtimeMs}\n`)
      }
    }
  }
  for (const name of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', name, 'src')
    if (existsSync(src)) visit(src)
  }
  hash.update(readFileSync(join(root, 'pnpm-lock.yaml')))
  return hash.digest('hex').slice(0, 16)
}

/**
 * Bundles the CLI into `dir` (written beside it, then renamed, so a reader never sees half of it):
 * the workspace's sources and the pure-JS packages inlined (tsconfig `paths`), the packages of
 * `loadedInPlace` imported from where pnpm installed them (by absolute path, so the bundle runs from
 * any directory), `import.meta.url` kept as each source file's own (the devnet's artifacts, the version, `createRequire` resolve from there),
 * and a chunk per dynamic import, so the KMS and PKCS#11 vaults still load only when configured.
 */
async function bundleCli(dir: string): Promise<void> {
  const staging = `${dir}.${process.pid}`
  await build({
    entryPoints: { main },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    absWorkingDir: root,
    logLevel: 'error',
    // The CommonJS packages inlined require node's built-ins.
    banner: {
      js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);",
    },
    plugins: [npmInPlace, ownImportMetaUrl],
  })
  mkdirSync(join(dir, '..'), { recursive: true })
  try {
    renameSync(staging, dir)
  } catch (error) {
    // Another process built the same sources first: keep its copy.
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(join(dir, 'main.mjs'))) throw error
  }
}

/** Packages left where pnpm installed them: native addons, and those that read files beside their code. */
const loadedInPlace =
  /\/node_modules\/(better-sqlite3|bindings|litesvm[^/]*|@nomicfoundation\/edr[^/]*|pkcs11js|pg|pg-[^/]+|@google-cloud\/[^/]+|google-[^/]+|@grpc\/[^/]+|@aws-sdk\/[^/]+|@smithy\/[^/]+|pino|thread-stream)\//

const npmInPlace: Plugin = {
  name: 'npm-in-place',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === npmInPlace || args.path.startsWith('node:')) return undefined
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: npmInPlace,
      })
      // An optional addon a package requires inside a try (ws's bufferutil): missing at run time too.
      if (resolved.errors.length > 0)
        return args.kind === 'require-call'
          ? { path: args.path, external: true }
          : { errors: resolved.errors }
      if (!resolved.path.includes('/node_modules/') || !loadedInPlace.test(resolved.path)) return resolved
      return { path: resolved.path, external: true }
    })
  },
}

const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta.url')) return undefined
      const url = JSON.stringify(pathToFileURL(args.path).href)
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' }
    })
  },
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli(process.argv[2]!)
