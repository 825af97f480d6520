import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.config'

export default defineConfig({
  ...packageBuild,
  entry: { index: 'src/index.ts' },
})
