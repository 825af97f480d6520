import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.config'

export default defineConfig({
  ...packageBuild,
  entry: { aws: 'src/aws.ts', gcp: 'src/gcp.ts' },
})
