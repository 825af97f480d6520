// Cold start of the built package: `pnpm build && node bench/startup.mjs`. Prints JSON lines.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const t0 = performance.now()
const { createDevnet } = await import('../dist/index.js')
const imported = performance.now()
const devnet = await createDevnet()
const ready = performance.now()
const block = await devnet.provider.request({ method: 'eth_blockNumber' })
console.log(
  JSON.stringify({
    run: 'fresh, in memory',
    importMs: Math.round(imported - t0),
    startToAllDeployedMs: Math.round(ready - imported),
    blocks: Number(block),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
)
await devnet.close()

// With a data dir: the first start deploys and journals, the restart replays the journal.
const dataDir = mkdtempSync(join(tmpdir(), 'devnet-bench-'))
try {
  let start = performance.now()
  const first = await createDevnet({ dataDir })
  const firstMs = performance.now() - start
  const [from] = first.accounts
  for (let i = 0; i < 200; i++) {
    await first.provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: from.address, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }],
    })
  }
  await first.close()
  start = performance.now()
  const second = await createDevnet({ dataDir })
  const replayMs = performance.now() - start
  console.log(
    JSON.stringify({
      run: 'dataDir',
      firstStartMs: Math.round(firstMs),
      restartReplaying246TxMs: Math.round(replayMs),
      blocks: Number(await second.provider.request({ method: 'eth_blockNumber' })),
    }),
  )
  await second.close()
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
