import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { repoRoot } from '../helpers/readmeSnippet.js'

const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
const packages = readdirSync(join(repoRoot, 'packages')).filter((dir) =>
  existsSync(join(repoRoot, 'packages', dir, 'package.json')),
)

it.each(packages)(
  'packages/%s builds on pack and declares engines, repository, license, and has a README',
  (dir) => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', dir, 'package.json'), 'utf8'))
    expect(manifest.scripts?.prepack).toBe('pnpm run build')
    expect(manifest.scripts?.build).toBeTruthy()
    expect(manifest.engines).toEqual(root.engines)
    expect(manifest.license).toBe('MIT')
    expect(manifest.repository).toEqual({ ...root.repository, directory: `packages/${dir}` })
    expect(readFileSync(join(repoRoot, 'packages', dir, 'README.md'), 'utf8')).toMatch(
      new RegExp(`^# ${manifest.name.replace('/', '\\/')}\\n`),
    )
  },
)
