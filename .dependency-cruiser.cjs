// The import rules of docs/architecture.md (Layers), checked by `pnpm lint` with dependency-cruiser.
// Only run-time imports count: an `import type` (or an import TypeScript erases because only types are
// used from it) is `pre-compilation-only` and may point anywhere.

/**
 * Core's folders, top to bottom. A folder imports (at run time) only folders of lower rows: never a
 * higher row, never another folder of its own row. So no two folders can import each other, even
 * through others (a cycle needs one import that goes up or sideways). A new folder goes in a row.
 */
const coreLayers = [
  ['api', 'testing'],
  ['contract'],
  ['approvals'],
  ['defi', 'ens', 'identity', 'multisig', 'payments', 'devnet', 'allowances', 'auditAnchors'],
  ['operations'],
  ['smartWallets'],
  ['transactions'],
  ['policy'],
  ['intents', 'effects', 'wallets', 'smartAccounts', 'principals', 'webhooks', 'metrics', 'screening'],
  ['solana'],
  ['events', 'idempotency', 'storage', 'vault', 'chain', 'bundler', 'health', 'audit'],
  ['utils'],
  ['schemas'],
  ['errors'],
]

const core = '^packages/core/src/'
/**
 * The contract (docs/architecture.md, "The contract"): each domain's `*Contract.ts` and the
 * `*Schemas.ts` / `*Schema.ts` files it reads, with the shared `schemas/` and `errors/` and the
 * `contract/` entry. It is what a browser loads: zod/mini and itself only.
 */
const contractFiles = `${core}(contract/|errors/|schemas/|[^/]+/[^/]+(Contract|Schemas|Schema)\\.ts$)`
const runTime = { dependencyTypesNot: ['pre-compilation-only'] }
const either = (folders) => `(${folders.join('|')})`

const layerRules = coreLayers.flatMap((row, index) => {
  const above = coreLayers.slice(0, index).flat()
  return row.map((folder) => ({
    name: `core-layer-${folder}`,
    comment: `${folder} imports only folders of the rows below its own in coreLayers (.dependency-cruiser.cjs)`,
    severity: 'error',
    // Contract files are a graph of their own (zod and each other only): they keep no layer, but no cycle.
    from: { path: `${core}${folder}/`, pathNot: contractFiles },
    to: { path: `${core}${either([...above, ...row.filter((other) => other !== folder)])}/`, ...runTime },
  }))
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'contract-imports-only-the-contract',
      comment:
        'a contract file imports zod/mini, @noble/hashes (the EIP-55 checksum) and other contract files only, types included: no viem, no node built-in, no domain code, and not classic zod (one classic import would bring its 100 kB into every browser bundle)',
      severity: 'error',
      from: { path: contractFiles },
      to: { pathNot: [contractFiles, '/node_modules/zod/mini/', '/node_modules/@noble/hashes/'] },
    },
    {
      name: 'contract-no-cycle',
      comment: 'contract files keep no layer of core, so they must not import each other in a circle',
      severity: 'error',
      from: { path: contractFiles },
      to: { circular: true },
    },
    {
      name: 'core-folder-not-in-a-layer',
      comment: 'every folder of core has its row in coreLayers (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: `${core}[^/]+/`, pathNot: `${core}${either(coreLayers.flat())}/` },
      to: {},
    },
    {
      name: 'core-folders-below-the-composition-root',
      comment: "core's folders do not import its root files (createAgentWallet, session, index, …)",
      severity: 'error',
      from: { path: `${core}[^/]+/` },
      to: { path: `${core}[^/]+$`, ...runTime },
    },
    {
      name: 'core-imports-no-workspace-package',
      comment: 'core is the bottom of the workspace: the other packages plug into it or put an edge on it',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^packages/', pathNot: '^packages/core/' },
    },
    {
      name: 'declared-dependencies-only',
      comment:
        "a package imports only what its own package.json declares (dependencies, peers), or Node's own",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'unknown', 'undetermined'], ...runTime },
    },
    {
      name: 'no-dev-dependency-at-run-time',
      comment:
        'shipped code imports no devDependency (but the dashboard: bundled at build time, its preact is one)',
      severity: 'error',
      from: { pathNot: '^packages/dashboard/' },
      // A peer dependency is also a devDependency of its package, for its own tests: that one is the user's.
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['pre-compilation-only', 'npm-peer'] },
    },
    {
      name: 'unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'core-through-its-entry-points',
      comment: 'other packages use core as a package (@agentwallet/core, /testing), never its files',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/core/' },
      to: { path: core, pathNot: `${core}(index|testing/index|contract/index)\\.ts$` },
    },
    {
      name: 'contract-readers-load-no-core',
      comment:
        "the client, the dashboard, OpenAPI, MCP and the agent adapters read @agentwallet/core/contract; core's entry (viem, the domain) they may name in types only",
      severity: 'error',
      from: {
        path: '^packages/((client|dashboard|mcp|ai-sdk|langchain|openai-agents)/src/|koa/src/openapi/)',
      },
      to: { path: `${core}(index|testing/index)\\.ts$`, ...runTime },
    },
    {
      name: 'adapters-beside-core',
      comment:
        'a Storage adapter or a devnet builds on core alone (or on nothing), never on another workspace package',
      severity: 'error',
      from: { path: '^packages/(sqlite|postgres|devnet|solana-devnet)/' },
      to: { path: '^packages/', pathNot: '^packages/(core|$1)/' },
    },
    {
      name: 'koa-edge-thin',
      comment:
        'the HTTP edge calls core and nothing below it: no viem, no Storage adapter, no devnet (only the CLI composes those)',
      severity: 'error',
      from: { path: '^packages/koa/src/', pathNot: '^packages/koa/src/cli/' },
      to: {
        path: ['^packages/(sqlite|postgres|devnet|solana-devnet)/', '(^|/)node_modules/viem/'],
        ...runTime,
      },
    },
  ],
  options: {
    exclude: { path: ['\\.test\\.ts$', '^packages/[^/]+/dist/'] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
    // A rerun reads only the files whose content changed (a full run takes some 6 s of CPU).
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
}
