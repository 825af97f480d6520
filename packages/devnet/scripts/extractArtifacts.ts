/**
 * Re-extracts the protocol artifacts under artifacts/ from the pinned npm tarballs.
 * `npm pack` instead of `npm install`: @ensdomains/ethregistrar's install fails on a git dependency
 * deep in its tree, and the tarballs alone hold the build JSON we need.
 * Run: pnpm --filter @agentwallet/devnet extract
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { normalizeAbi } from './normalizeAbi.js'
import { writeAbiModules } from './writeAbiModules.js'

type Source = { spec: string; out: string; contracts: Record<string, string> }

// Paths inside each tarball's package/ folder.
const sources: Source[] = [
  {
    spec: '@uniswap/v2-core@1.0.1',
    out: 'uniswap-v2-core.json',
    contracts: { UniswapV2Factory: 'build/UniswapV2Factory.json', UniswapV2Pair: 'build/UniswapV2Pair.json' },
  },
  {
    spec: '@uniswap/v2-periphery@1.1.0-beta.0',
    out: 'uniswap-v2-periphery.json',
    contracts: { UniswapV2Router02: 'build/UniswapV2Router02.json', WETH9: 'build/WETH9.json' },
  },
  {
    spec: '@uniswap/v3-core@1.0.1',
    out: 'uniswap-v3-core.json',
    contracts: { UniswapV3Factory: 'artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json' },
  },
  {
    spec: '@uniswap/v3-periphery@1.4.4',
    out: 'uniswap-v3-periphery.json',
    contracts: {
      NonfungiblePositionManager:
        'artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
      QuoterV2: 'artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
    },
  },
  {
    spec: '@uniswap/swap-router-contracts@1.3.1',
    out: 'uniswap-swap-router.json',
    contracts: { SwapRouter02: 'artifacts/contracts/SwapRouter02.sol/SwapRouter02.json' },
  },
  {
    spec: '@safe-global/safe-contracts@1.4.1',
    out: 'safe.json',
    contracts: {
      Safe: 'build/artifacts/contracts/Safe.sol/Safe.json',
      SafeL2: 'build/artifacts/contracts/SafeL2.sol/SafeL2.json',
      SafeProxyFactory: 'build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
      CompatibilityFallbackHandler:
        'build/artifacts/contracts/handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
      MultiSend: 'build/artifacts/contracts/libraries/MultiSend.sol/MultiSend.json',
      MultiSendCallOnly: 'build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
    },
  },
  {
    spec: '@ensdomains/ethregistrar@2.0.5',
    out: 'ens-ethregistrar.json',
    contracts: {
      ENSRegistry: 'build/contracts/ENSRegistry.json',
      BaseRegistrarImplementation: 'build/contracts/BaseRegistrarImplementation.json',
      ETHRegistrarController: 'build/contracts/ETHRegistrarController.json',
      StablePriceOracle: 'build/contracts/StablePriceOracle.json',
    },
  },
  {
    spec: '@ensdomains/resolver@0.3.1',
    out: 'ens-resolver.json',
    contracts: {
      PublicResolver: 'build/contracts/PublicResolver.json',
      ReverseRegistrar: 'build/contracts/ReverseRegistrar.json',
    },
  },
  {
    spec: '@account-abstraction/contracts@0.8.0',
    out: 'account-abstraction.json',
    contracts: { EntryPoint: 'artifacts/EntryPoint.json' },
  },
]

/** The Delegation Framework ships each contract as an ES module pair: dist/abis/X.mjs and dist/bytecode/X.mjs. */
const delegationFramework = {
  spec: '@metamask/delegation-abis@2.0.0',
  out: 'delegation-framework.json',
  contracts: [
    'DelegationManager',
    'HybridDeleGator',
    // The P256 library HybridDeleGator links (passkey signers): its bytecode holds a link placeholder.
    'SCL_RIP7212',
    'EIP7702StatelessDeleGator',
    'SimpleFactory',
    'ERC1967Proxy',
    'TimestampEnforcer',
    'AllowedTargetsEnforcer',
    'AllowedMethodsEnforcer',
    'ValueLteEnforcer',
    'NativeTokenPeriodTransferEnforcer',
    'ERC20PeriodTransferEnforcer',
    'ERC20TransferAmountEnforcer',
    'ERC20BalanceChangeEnforcer',
    'LimitedCallsEnforcer',
    'RedeemerEnforcer',
  ],
}

const artifactsDir = fileURLToPath(new URL('../artifacts/', import.meta.url))

function unpack(spec: string, into: string): string {
  const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', into], {
    encoding: 'utf8',
  }).trim()
  execFileSync('tar', ['xzf', join(into, file), '-C', into])
  return join(into, 'package')
}

function mkdirIn(parent: string, name: string): string {
  const dir = join(parent, name)
  execFileSync('mkdir', ['-p', dir])
  return dir
}

function bytecodeOf(json: Record<string, unknown>): `0x${string}` {
  // waffle puts it under evm.bytecode.object or bytecode; truffle and hardhat under bytecode.
  const evm = json.evm as { bytecode?: { object?: string } } | undefined
  const raw = (typeof json.bytecode === 'string' ? json.bytecode : evm?.bytecode?.object) ?? ''
  return (raw.startsWith('0x') ? raw : `0x${raw}`) as `0x${string}`
}

const work = mkdtempSync(join(tmpdir(), 'devnet-artifacts-'))
try {
  for (const source of sources) {
    const dir = join(work, source.out)
    execFileSync('mkdir', ['-p', dir])
    const root = unpack(source.spec, dir)
    const contracts: Record<string, unknown> = {}
    for (const [name, path] of Object.entries(source.contracts)) {
      const json = JSON.parse(readFileSync(join(root, path), 'utf8'))
      contracts[name] = { abi: normalizeAbi(json.abi), bytecode: bytecodeOf(json) }
    }
    writeFileSync(
      join(artifactsDir, source.out),
      `${JSON.stringify({ source: source.spec, contracts }, null, 1)}\n`,
    )
    console.log(`wrote ${source.out} from ${source.spec}`)
  }
  const delegationRoot = unpack(delegationFramework.spec, mkdirIn(work, 'delegation'))
  const delegationContracts: Record<string, unknown> = {}
  for (const name of delegationFramework.contracts) {
    const { abi } = await import(pathToFileURL(join(delegationRoot, `dist/abis/${name}.mjs`)).href)
    const { bytecode } = await import(pathToFileURL(join(delegationRoot, `dist/bytecode/${name}.mjs`)).href)
    delegationContracts[name] = { abi: normalizeAbi(abi), bytecode }
  }
  writeFileSync(
    join(artifactsDir, delegationFramework.out),
    `${JSON.stringify({ source: delegationFramework.spec, contracts: delegationContracts }, null, 1)}\n`,
  )
  console.log(`wrote ${delegationFramework.out} from ${delegationFramework.spec}`)
  const factoryDir = join(work, 'factory')
  execFileSync('mkdir', ['-p', factoryDir])
  const factoryRoot = unpack('@safe-global/safe-singleton-factory@2.0.0', factoryDir)
  const deployment = JSON.parse(readFileSync(join(factoryRoot, 'artifacts/31337/deployment.json'), 'utf8'))
  writeFileSync(
    join(artifactsDir, 'safe-singleton-factory.json'),
    `${JSON.stringify({ source: '@safe-global/safe-singleton-factory@2.0.0 (artifacts/31337)', deployment }, null, 1)}\n`,
  )
  writeAbiModules()
} finally {
  rmSync(work, { recursive: true, force: true })
}
