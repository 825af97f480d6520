import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cliEntry } from '../helpers/cliBundle.js'

/** The repository root, where each CLI process runs. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

export type CliProcess = {
  child: ChildProcess
  /** stdout + stderr so far, for failure messages. */
  output(): string
  /** The first stdout line matching `pattern`, waiting at most `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string | null>
  kill(signal?: NodeJS.Signals): Promise<void>
}

/**
 * Runs `agentwallet <args>` from source (bundled by `cliEntry`, cwd the repo root), so the harness
 * needs no build: the same CLI a deployment runs from `dist`.
 * @example const devnet = startCli(['devnet', '--port', '0'], {}); await devnet.waitFor(/on (http\S+)/, 30_000)
 */
export function startCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [cliEntry(), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const lines: string[] = []
  const waiters = new Set<() => void>()
  let buffered = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
    buffered += chunk
    const parts = buffered.split('\n')
    buffered = parts.pop()!
    lines.push(...parts)
    for (const wake of waiters) wake()
  })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output = (output + chunk).slice(-20_000)
  })
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? signal)
      for (const wake of waiters) wake()
    })
  })
  let done = false
  void exited.then(() => {
    done = true
  })
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`timed out waiting for ${pattern}:\n${output}`)),
          timeoutMs,
        )
        const check = () => {
          for (const line of lines) {
            const match = line.match(pattern)
            if (match) return finish(undefined, match)
          }
          if (done) finish(new Error(`exited before ${pattern}:\n${output}`))
        }
        function finish(error?: Error, match?: RegExpMatchArray) {
          clearTimeout(timer)
          waiters.delete(check)
          if (error) reject(error)
          else resolve(match!)
        }
        waiters.add(check)
        check()
      })
    },
    async kill(signal = 'SIGTERM') {
      if (done) return
      child.kill(signal)
      // A process that ignores SIGTERM for 5 s is killed for good.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** Runs `agentwallet <args>` to completion; rejects with its output on a non-zero exit. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  const run = startCli(args, env)
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs)
  const code = await run.exited
  clearTimeout(timer)
  if (code !== 0) throw new Error(`agentwallet ${args[0]} exited with ${code}:\n${run.output()}`)
  return run.output()
}

/**
 * `agentwallet serve <args>` until it listens; `running` holds it until it exits (kill what is left
 * in afterAll).
 * @example const { server, url } = await startServer(['--port', '0'], env, running)
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  running: Set<CliProcess>,
): Promise<{ server: CliProcess; url: string }> {
  const server = startCli(['serve', ...args], env)
  running.add(server)
  void server.exited.then(() => running.delete(server))
  const url = (await server.waitFor(/AgentWallet listening on (\S+)/, 60_000))[1]!
  return { server, url }
}

/** A JSON call to a served API with `apiKey` (and an idempotency key when given): its status and parsed body. */
export async function callApi(
  url: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}
