import { Session } from 'node:inspector/promises'
import { byPlace } from './cpuProfile.js'

/** A node of V8's sampling heap profile (the part read here). */
type HeapNode = { callFrame: { url: string }; selfSize: number; children: HeapNode[] }

/**
 * Bytes allocated while `work` runs, by where the allocating code lives (`byPlace`; no url: V8's or a
 * native's own, `(native)`), the largest first: V8's sampling heap profiler at one sample a kB on
 * average, objects later collected included, so the figure is what the garbage collector has to clear.
 * @example const rows = await sampledAllocations(() => sendLoop(400))
 */
export async function sampledAllocations(
  work: () => Promise<unknown>,
): Promise<Array<{ bucket: string; bytes: number }>> {
  const session = new Session()
  session.connect()
  try {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never)
    await work()
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
      profile: { head: HeapNode }
    }
    const bytes = new Map<string, number>()
    const walk = (node: HeapNode) => {
      const bucket = node.callFrame.url ? byPlace(node.callFrame.url) : '(native)'
      bytes.set(bucket, (bytes.get(bucket) ?? 0) + node.selfSize)
      for (const child of node.children) walk(child)
    }
    walk(profile.head)
    return [...bytes].map(([bucket, size]) => ({ bucket, bytes: size })).sort((a, b) => b.bytes - a.bytes)
  } finally {
    session.disconnect()
  }
}
