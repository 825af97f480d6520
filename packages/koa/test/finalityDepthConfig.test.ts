import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openAgentWallet } from '../src/cli/openAgentWallet.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-finality-'))
const configOf = (argv: string[], env: Record<string, string> = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env)

describe('serve --finality-depth', () => {
  it('takes a depth for every chain, per chain, or both, from the flag over the env', () => {
    expect(configOf([]).finalityDepth).toEqual({ all: undefined, byChain: {} })
    expect(configOf(['--finality-depth', '12,sepolia=64']).finalityDepth).toEqual({
      all: 12,
      byChain: { sepolia: 64 },
    })
    expect(configOf([], { AGENTWALLET_FINALITY_DEPTH: 'base=5' }).finalityDepth).toEqual({
      all: undefined,
      byChain: { base: 5 },
    })
    expect(configOf(['--finality-depth', '7'], { AGENTWALLET_FINALITY_DEPTH: '9' }).finalityDepth.all).toBe(7)
  })

  it('refuses what is not a positive number of blocks', () => {
    for (const bad of ['0', 'sepolia=', 'twelve', '-3', 'sepolia=1.5'])
      expect(() => configOf(['--finality-depth', bad])).toThrow(CliError)
  })

  it('reaches the chain the server runs on, and a name no chain has is refused', async () => {
    const config = configOf(['--storage', 'memory', '--finality-depth', '20,devnet=2'])
    const runtime = await openAgentWallet(config, {}, 'serve')
    try {
      expect(runtime.agentWallet.context.chains.get('devnet').finalityDepth).toBe(2)
      expect(runtime.agentWallet.context.options.finalityDepth).toBe(20)
    } finally {
      await runtime.close()
    }
    await expect(
      openAgentWallet(configOf(['--storage', 'memory', '--finality-depth', 'mainnet=64']), {}, 'serve'),
    ).rejects.toBeInstanceOf(CliError)
  })
})
