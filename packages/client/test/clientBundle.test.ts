import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url))
const root = fileURLToPath(new URL('../../..', import.meta.url))
const tsconfig = `${root}/tsconfig.json`

/** The client bundled as an app would: minified, zod and the contract included, nothing external. */
async function bundle(platform: 'browser' | 'neutral') {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    // An edge runtime (neutral) resolves packages as a browser does: ESM `exports`, no node built-ins.
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    tsconfig,
    // Inputs are named from the repository root, wherever vitest runs from.
    absWorkingDir: root,
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  return {
    result,
    code,
    gzipped: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  }
}

describe('@agentwallet/client bundle', () => {
  it('bundles for the browser from the contract alone: no viem, no classic zod, no core domain code', async () => {
    const { result, inputs } = await bundle('browser')
    expect(result.errors).toEqual([])
    expect(inputs.filter((input) => /node_modules\/(viem|@x402|ox)\//.test(input))).toEqual([])
    // The contract is written with zod/mini: classic zod (some 100 kB minified) stays out.
    expect(inputs.filter((input) => /node_modules\/zod\/v4\/classic\//.test(input))).toEqual([])
    // Of core it loads only contract files (the same set `.dependency-cruiser.cjs` names).
    const core = inputs.filter((input) => input.startsWith('packages/core/src/'))
    expect(core.length).toBeGreaterThan(0)
    expect(
      core.filter(
        (input) =>
          !/^packages\/core\/src\/(contract\/|errors\/|schemas\/|[^/]+\/[^/]+(Contract|Schemas|Schema)\.ts$)/.test(
            input,
          ),
      ),
    ).toEqual([])
  })

  // Issue #30's budget. 34.5 kB gzipped (117 kB raw, zod/mini 42 kB of it) since the contract is
  // written with zod/mini; it was 51.2 kB (178 kB raw, zod 102 kB of it) with classic zod.
  it('is at most 40 kB gzipped for the browser (minified, zod included)', async () => {
    const { gzipped } = await bundle('browser')
    expect(gzipped).toBeLessThanOrEqual(40_000)
  })

  it('bundles for an edge runtime (platform neutral) with no node built-in', async () => {
    const { result, inputs } = await bundle('neutral')
    expect(result.errors).toEqual([])
    expect(
      inputs.filter((input) => input.startsWith('node:') || /^(crypto|util|fs|path)$/.test(input)),
    ).toEqual([])
  })
})
