import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openAgentWallet } from '../src/cli/openAgentWallet.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-fee-bumping-'))
// Not <data-dir>/config.json, which is read without --config.
const configFile = join(mkdtempSync(join(tmpdir(), 'agentwallet-fee-bumping-config-')), 'settings.json')
writeFileSync(
  configFile,
  JSON.stringify({ rebroadcastAfterMs: 45_000, replaceStuckAfterMs: false, maxFeeBumpMultiplier: 3 }),
)

const configOf = (argv: string[], env: Record<string, string> = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env).feeBumping

it('serve reads the tracker delays and the fee-bump cap from flags over env over the config file', () => {
  expect(configOf([])).toEqual({
    rebroadcastAfterMs: 30_000,
    replaceStuckAfterMs: 120_000,
    maxFeeBumpMultiplier: 5,
  })
  expect(configOf(['--config', configFile])).toEqual({
    rebroadcastAfterMs: 45_000,
    replaceStuckAfterMs: false,
    maxFeeBumpMultiplier: 3,
  })
  const env = {
    AGENTWALLET_REBROADCAST_AFTER_MS: '10000',
    AGENTWALLET_REPLACE_STUCK_AFTER_MS: '60000',
    AGENTWALLET_MAX_FEE_BUMP: '2.5',
  }
  expect(configOf(['--config', configFile], env)).toEqual({
    rebroadcastAfterMs: 10_000,
    replaceStuckAfterMs: 60_000,
    maxFeeBumpMultiplier: 2.5,
  })
  expect(
    configOf(
      [
        '--config',
        configFile,
        '--rebroadcast-after-ms',
        '5000',
        '--replace-stuck-after-ms',
        'off',
        '--max-fee-bump',
        '8',
      ],
      env,
    ),
  ).toEqual({ rebroadcastAfterMs: 5000, replaceStuckAfterMs: false, maxFeeBumpMultiplier: 8 })
})

it('serve refuses a delay or cap that is nonsense, naming the flag', () => {
  for (const [argv, flag] of [
    [['--rebroadcast-after-ms', '30s'], '--rebroadcast-after-ms'],
    [['--rebroadcast-after-ms', '10'], '--rebroadcast-after-ms'],
    [['--replace-stuck-after-ms', '-1'], '--replace-stuck-after-ms'],
    [['--replace-stuck-after-ms', 'never'], '--replace-stuck-after-ms'],
    [['--max-fee-bump', '1'], '--max-fee-bump'],
    [['--max-fee-bump', 'five'], '--max-fee-bump'],
    [['--max-fee-bump', '1e9'], '--max-fee-bump'],
  ] as const) {
    let thrown: unknown
    try {
      configOf([...argv])
    } catch (error) {
      thrown = error
    }
    expect(thrown, argv.join(' ')).toBeInstanceOf(CliError)
    expect((thrown as Error).message).toContain(flag)
  }
})

it('the settings reach the tracker: the runtime serve opens carries them', async () => {
  const config = loadConfig(
    parseCli([
      'serve',
      '--storage',
      'memory',
      '--data-dir',
      dataDir,
      '--rebroadcast-after-ms',
      '7000',
      '--replace-stuck-after-ms',
      'off',
      '--max-fee-bump',
      '2',
    ]).values,
    {},
  )
  const runtime = await openAgentWallet(config, {}, 'serve')
  try {
    expect(runtime.agentWallet.context.options).toMatchObject({
      rebroadcastAfterMs: 7000,
      replaceStuckAfterMs: false,
      maxFeeBumpMultiplier: 2,
    })
  } finally {
    await runtime.close()
  }
})
