import type { Options } from 'tsup'

/**
 * Shared build settings; each package's tsup.config.ts spreads these and names its entries.
 * @example export default defineConfig({ ...packageBuild, entry: { index: 'src/index.ts' } })
 */
export const packageBuild: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true,
}
