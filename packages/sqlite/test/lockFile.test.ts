import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { lockFile } from '@agentwallet/sqlite'
import { afterAll, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'aw-lock-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('one holder at a time in this process; the refused taker learns who holds it; release frees it', () => {
  const filename = join(dir, 'in-process.lock')
  const lock = lockFile({ filename, command: 'first' })
  expect(lock.holder).toMatchObject({ pid: process.pid, command: 'first' })
  let refused: unknown
  try {
    lockFile({ filename, command: 'second' })
  } catch (error) {
    refused = error
  }
  expect(refused).toMatchObject({
    code: 'conflict',
    details: { filename, reason: 'locked', holder: { pid: process.pid, command: 'first' } },
  })
  // The refused taker's connection closing must not drop the holder's lock.
  expect(() => lockFile({ filename, command: 'third' })).toThrow(
    expect.objectContaining({ code: 'conflict' }),
  )
  lock.release()
  lock.release()
  lockFile({ filename, command: 'again' }).release()
})

it('a holder killed with SIGKILL leaves nothing behind: the next taker gets the lock at once', async () => {
  const filename = join(dir, 'killed.lock')
  const source = join(root, 'packages/sqlite/src/lockFile.ts')
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { lockFile } = await import(${JSON.stringify(source)}); lockFile({ filename: ${JSON.stringify(filename)}, command: 'child' }); console.log('locked'); setInterval(() => {}, 60_000)`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string]
    expect(line.trim()).toBe('locked')
    expect(() => lockFile({ filename, command: 'parent' })).toThrow(
      expect.objectContaining({
        code: 'conflict',
        details: expect.objectContaining({ holder: expect.objectContaining({ pid: child.pid }) }),
      }),
    )
  } finally {
    child.kill('SIGKILL')
    await once(child, 'exit')
  }
  const lock = lockFile({ filename, command: 'parent' })
  expect(lock.holder.pid).toBe(process.pid)
  lock.release()
})
