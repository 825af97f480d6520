import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { readmeLibrarySnippet, repoRoot, snippetOutput } from '../helpers/readmeSnippet.js'

// Inside the repository, so tsx resolves @agentwallet/* to the sources through tsconfig's paths.
const dir = mkdtempSync(join(repoRoot, 'test/docs/.snippet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('the README library snippet, run verbatim, prints the confirmation event and the status, then exits', async () => {
  const file = join(dir, 'snippet.ts')
  writeFileSync(file, readmeLibrarySnippet())
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (err += chunk))
  // Exiting on its own is the point: a listener or handle left open would keep it alive past the test timeout.
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  expect(err).toBe('')
  expect(code).toBe(0)
  expect(out).toMatch(snippetOutput)
})
