import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.config'

// The CLI is its own entry (with a shebang) so `agentwallet` runs without a loader.
export default defineConfig({ ...packageBuild, entry: { index: 'src/index.ts', cli: 'src/cli/main.ts' } })
