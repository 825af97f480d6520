import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cliEntry } from './cliBundle.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** A CLI process's output so far and, once it exited, its code (null while it runs). */
export type CliRun = { out: string; err: string; code: number | null; child: ChildProcess }

/**
 * Starts CLI processes (bundled from source, `cliEntry`) with `env` over the test's, on a fresh
 * `dataDir`; `cleanup` (afterAll) kills those still running and removes the dir. `run` answers once
 * `until` matches the output, or the process exits.
 * @example const { run, stop, dataDir, cleanup } = cliProcesses('agentwallet-audit-', { AGENTWALLET_MASTER_KEY: '' })
 */
export function cliProcesses(prefix: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  const children: ChildProcess[] = []
  const run = (args: string[], until?: RegExp, more: Record<string, string> = {}): Promise<CliRun> => {
    const child = spawn(process.execPath, [cliEntry(), ...args], {
      cwd: root,
      env: { ...process.env, ...env, ...more },
    })
    children.push(child)
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    return new Promise((resolve) => {
      const check = () => until?.test(out) && resolve({ out, err, code: null, child })
      child.stdout.on('data', check)
      child.on('exit', (code) => resolve({ out, err, code, child }))
    })
  }
  const stop = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  const cleanup = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { run, stop, dataDir, cleanup }
}
