import { Session } from 'node:inspector/promises'

/** The part of V8's `.cpuprofile` JSON read here. */
export type CpuProfile = {
  nodes: Array<{
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
    children?: number[]
  }>
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Self time (ms) of a profile by bucket, the largest first. */
export type Attribution = Array<{ bucket: string; ms: number }>

/**
 * Profiles the main thread while `work` runs (the inspector's sampling profiler, 100 µs interval).
 * @example const { profile, result } = await profiled(() => sendLoop(500))
 */
export async function profiled<T>(work: () => Promise<T>): Promise<{ profile: CpuProfile; result: T }> {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    await session.post('Profiler.start')
    const result = await work()
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }
    return { profile, result }
  } finally {
    session.disconnect()
  }
}

/**
 * Sums a profile's self time by where the code lives: `ours:<package>/<folder>` for the monorepo's
 * sources (the devnet package is the EVM's edge: `evm:devnet`), `<package>` for a dependency,
 * `node:<module>` for Node's own JS, V8's `(garbage collector)`, `(program)` and `(idle)`, and
 * `(profiler)` for the inspector's own work when the profile is taken from inside the process. A
 * native function (no url: a better-sqlite3 statement, EDR's call, a builtin) counts in its caller's
 * bucket, so SQLite's work shows under the adapter that ran the statement.
 * @example for (const { bucket, ms } of attribute(profile, byPlace)) console.log(bucket, ms)
 */
export function attribute(profile: CpuProfile, bucketOf: (url: string) => string = byPlace): Attribution {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const bucketById = new Map<number, string>()
  const walk = (id: number, inherited: string) => {
    const node = byId.get(id)!
    const { functionName, url } = node.callFrame
    // The inspector's own frames are the profiler stopping (serialising its samples), not the work.
    const bucket =
      inherited === '(profiler)' || url === 'node:inspector'
        ? '(profiler)'
        : url
          ? bucketOf(url)
          : functionName.startsWith('(') && functionName !== '(anonymous)'
            ? functionName
            : inherited
    bucketById.set(id, bucket)
    for (const child of node.children ?? []) walk(child, bucket)
  }
  walk(profile.nodes[0]!.id, '(root)')
  const totals = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const bucket = bucketById.get(id) ?? '(unknown)'
    totals.set(bucket, (totals.get(bucket) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  return [...totals].map(([bucket, ms]) => ({ bucket, ms })).sort((a, b) => b.ms - a.ms)
}

/** A url's place: `ours:core/policy`, `evm:devnet`, `viem`, `@noble/hashes`, `node:internal/…`. */
export function byPlace(url: string): string {
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (dependency) return dependency[1]!
  const ours = /\/packages\/([^/]+)\/(?:src|dist)\/(?:([^/]+)\/)?/.exec(url)
  if (ours) {
    const [, pkg, folder] = ours
    if (pkg === 'devnet') return 'evm:devnet'
    return `ours:${pkg}${folder && !folder.includes('.') ? `/${folder}` : ''}`
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`
  if (url.includes('/bench/')) return 'bench'
  return url
}

/** A url's family: `ours`, `evm`, `library` (a dependency), `node`, or V8's `(gc)`/`(program)`/`(idle)`. */
export function byFamily(url: string): string {
  const place = byPlace(url)
  if (place.startsWith('ours:')) return 'ours'
  if (place.startsWith('evm:') || place === '@nomicfoundation/edr') return 'evm'
  if (place.startsWith('node:')) return 'node'
  if (place === 'bench') return 'bench'
  return 'library'
}

/** Self time (ms) by function, `name file:line`, the largest first: for a flat view of the hot spots. */
export function byFunction(profile: CpuProfile): Attribution {
  const totals = new Map<number, number>()
  profile.samples.forEach((id, i) => {
    totals.set(id, (totals.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  const named = new Map<string, number>()
  for (const node of profile.nodes) {
    const ms = totals.get(node.id)
    if (!ms) continue
    const { functionName, url, lineNumber } = node.callFrame
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|packages)\//, '')}:${lineNumber + 1}`
    named.set(key, (named.get(key) ?? 0) + ms)
  }
  return [...named].map(([bucket, ms]) => ({ bucket, ms })).sort((a, b) => b.ms - a.ms)
}

/**
 * Time (ms) of the samples with a function of each name on their stack (each sample counted once a
 * name, however deep the recursion): where a step's whole cost, callees included, is wanted.
 * @example inclusive(profile, ['evaluateIntent', 'auditDecision'])
 */
export function inclusive(profile: CpuProfile, names: readonly string[]): Record<string, number> {
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const wanted = new Set(names)
  const onStack = new Map<number, Set<string>>()
  const stackOf = (id: number): Set<string> => {
    const known = onStack.get(id)
    if (known) return known
    const up = parent.get(id)
    const names = new Set(up === undefined ? [] : stackOf(up))
    const name = byId.get(id)!.callFrame.functionName
    if (wanted.has(name)) names.add(name)
    onStack.set(id, names)
    return names
  }
  const totals: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]))
  profile.samples.forEach((id, i) => {
    for (const name of stackOf(id)) totals[name]! += (profile.timeDeltas[i] ?? 0) / 1000
  })
  return totals
}
