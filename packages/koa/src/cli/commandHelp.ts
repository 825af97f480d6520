import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { keysUsage } from './keys.js'

const storageFlags = `  --data-dir <dir>      default ./.agentwallet                env AGENTWALLET_DATA_DIR
  --storage sqlite|memory|postgres  default sqlite            env AGENTWALLET_STORAGE
  --database-url <url>  Postgres, shared by every replica       env AGENTWALLET_DATABASE_URL
  --database-schema <s> Postgres schema, default agentwallet    env AGENTWALLET_DATABASE_SCHEMA
  --config <file>       JSON with the same settings (default <data-dir>/config.json if present)`

const serverFlags = `  --port <n>            default 8080                          env AGENTWALLET_PORT
  --host <h>            default 127.0.0.1                     env AGENTWALLET_HOST
  --public-url <url>    the address clients reach (explorer links) env AGENTWALLET_PUBLIC_URL
${storageFlags}
  --chain name=rpcUrl[,rpcUrl…]  repeatable; several URLs of one chain are ranked and each used
                        when those before fail; default the embedded devnet
                        env AGENTWALLET_CHAINS (comma-separated: a=https://x,https://y,b=https://z)
  --address-book name=file  repeatable; the chain's protocol contracts, as \`devnet deploy\` writes them
                        env AGENTWALLET_ADDRESS_BOOK (name=file,…), config addressBooks {name: file}
  --dev-chain <name>    repeatable; a development chain: the faucet funds there (default: chain ids
                        31337 and 1337)  env AGENTWALLET_DEV_CHAINS (comma-separated), config devChains
  --block-time <s>      the embedded devnet mines a block every <s> seconds, not one per send
                        env AGENTWALLET_BLOCK_TIME
  --log-level <level>   fatal|error|warn|info|debug|trace|silent, default info  env AGENTWALLET_LOG_LEVEL
  --rebroadcast-after-ms <ms>  a tx the node lost is sent again after this, default 30000  env AGENTWALLET_REBROADCAST_AFTER_MS
  --replace-stuck-after-ms <ms|off>  an underpriced tx is re-signed with higher fees after this, default 120000  env AGENTWALLET_REPLACE_STUCK_AFTER_MS
  --max-fee-bump <x>    replacements pay at most x times the first max fee, default 5  env AGENTWALLET_MAX_FEE_BUMP
  --finality-depth <n>  blocks until a mined tx is final: n, name=n per chain, comma-separated;
                        default per chain (64 Ethereum, 10 rollups, 3 devnet)  env AGENTWALLET_FINALITY_DEPTH
  --vault local|pkcs11|aws-kms|gcp-kms  where wallet keys live, default local  env AGENTWALLET_VAULT
                        pkcs11: env AGENTWALLET_PKCS11_MODULE, _TOKEN_LABEL or _SLOT, _PIN (docs/deploy.md)
                        aws-kms: AGENTWALLET_AWS_KMS_REGION (else AWS_REGION), AGENTWALLET_AWS_KMS_ENDPOINT
                        gcp-kms: AGENTWALLET_GCP_KMS_KEY_RING=projects/…/locations/…/keyRings/…,
                        AGENTWALLET_GCP_KMS_PROTECTION_LEVEL HSM|SOFTWARE, …_TRANSPORT grpc|rest, …_ENDPOINT`

const runningServerNote = `While a server runs on the data dir, this goes through its API as the root admin
(AGENTWALLET_ADMIN_KEY, else <data-dir>/admin.key).`

/** Each command's own help (`agentwallet <command> --help`). */
export const commandHelp: Record<string, string> = {
  serve: `Usage: agentwallet serve [flags]

The HTTP + WebSocket API. Default: SQLite and a persistent embedded devnet in --data-dir.
On first start it prints the root admin API key once (also saved to <data-dir>/admin.key, 0600).

Flags:
${serverFlags}
Secrets (env only): AGENTWALLET_ADMIN_KEY is the root admin key (a new value revokes the previous one);
AGENTWALLET_MASTER_KEY the key-encryption key. KMS credentials: the SDK's own (AWS_ACCESS_KEY_ID/
AWS_SECRET_ACCESS_KEY or a role; GOOGLE_APPLICATION_CREDENTIALS or ADC). One process holds a data dir at a time.
AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS=127.0.0.0/8,::1/128 lets webhooks target those private/loopback ranges.`,
  keys: `${keysUsage}

Manages API keys: create prints the key once; list shows ids, prefixes, roles; revoke stops a key at once.
${runningServerNote} With the server stopped, it writes the data dir's storage directly.

Flags:
  --name <name>         the key's name (create)
  --role <role>         agent (default), approver or admin (create)
  --tenant <id>         another tenant (server stopped only)
${storageFlags}`,
  faucet: `Usage: agentwallet faucet <address> [eth]

Adds test ETH (default 10, at most 100 per call) to an address on the running server's devnet.
${runningServerNote}

Flags:
  --data-dir <dir>      the server's data dir, default ./.agentwallet  env AGENTWALLET_DATA_DIR`,
  devnet: `Usage: agentwallet devnet [--port 8545] [--host 127.0.0.1] [--data-dir <dir>] [--storage memory]
                         [--block-time <seconds>]
       agentwallet devnet --solana [--port 8899] [--host 127.0.0.1] [--data-dir <dir>] [--storage memory]
       agentwallet devnet deploy --rpc <url> --out <file> [--key <hex>]

Serves the embedded chain (state in <data-dir>/devnet) as JSON-RPC, chain id 31337; a server uses it
with --chain devnet=http://127.0.0.1:8545. --block-time mines a block every <seconds> (fractions
allowed) instead of one per send, as a real chain does; env AGENTWALLET_BLOCK_TIME.
With --solana: the embedded Solana devnet (LiteSVM, state in <data-dir>/solana-devnet) as Solana
JSON-RPC over HTTP and WebSocket on one port (default 8899); see docs/solana.md.
With deploy: the same protocol set, from the same artifacts, deployed onto another dev node of chain
id 31337 (anvil, hardhat), paid by a funded key (default the mnemonic's first account; --key or env
AGENTWALLET_DEPLOY_KEY for another), the address book written to --out; then
agentwallet serve --chain devnet=<url> --address-book devnet=<file>.`,
  migrate: `Usage: agentwallet migrate --storage postgres --database-url <url> [--database-schema <s>]

Brings the Postgres schema up to date and exits.`,
  'rotate-master-key': `Usage: agentwallet rotate-master-key [--data-dir <dir>] [--storage …]

Re-seals wallet keys and webhook secrets under a new master key, with every server stopped.
Old key: AGENTWALLET_MASTER_KEY or <data-dir>/master.key; new: AGENTWALLET_NEW_MASTER_KEY or generated
(0600 in the data dir). See docs/deploy.md.`,
  audit: `Usage: agentwallet audit export [--tenant <id>] [--out <file.jsonl>] [--data-dir <dir>] [--storage …]
       agentwallet audit verify [<file.jsonl>] [--public-key <hex>] [--allow-unsigned-tail] [--data-dir <dir>] [--storage …]
                                [--anchor-rpc <url> --anchor-address <0x…> [--anchor-from-block <n>]] [--tsa-cert <pem>]

export writes a tenant's audit trail (default tenant: default) as JSON lines, from the data dir's
storage (a running server's: GET /audit/export), ending with a checkpoint signed at export time. verify
checks a file, or without one every tenant's trail in the storage, offline: each entry's hash, the
chain, the checkpoint signatures (against --public-key, the key in /health; with a data dir, its
audit.key or AGENTWALLET_AUDIT_KEY), and re-runs every recorded policy decision with the rules engine.
Given the key, it fails closed: an entry no checkpoint signed with it covers is a problem, unless
--allow-unsigned-tail (then counted and named). With --anchor-rpc and --anchor-address (the anchor
account, AGENTWALLET_AUDIT_ANCHOR_WALLET of the server), it reads the heads that account published on
that chain (from --anchor-from-block, default 0) and reports a trail that differs from one or stops
short of it. Each RFC 3161 token in the trail (AGENTWALLET_AUDIT_TSA_URL) is checked: it names its head and
its signature verifies, by the authority's certificate given with --tsa-cert. The file is read line by line, in bounded memory. It prints each problem with the entry's
position and exits non-zero on any. See docs/security.md.`,
  mcp: `Usage: AGENTWALLET_API_KEY=<agent key> agentwallet mcp

The agent tools as an MCP server on stdio. AGENTWALLET_URL points at a running server (else in-process
over the data dir); AGENTWALLET_MCP_TRANSPORT=http serves streamable HTTP instead.`,
}

/** The global help (`agentwallet --help`). */
export const usage = `Usage: agentwallet <command> [flags]      (agentwallet <command> --help for its own)

Commands:
  serve    HTTP + WebSocket API (default: SQLite + embedded devnet in --data-dir)
  keys     create --name <n> [--role agent|approver|admin] | list | revoke <id>
  faucet   <address> [eth]: test ETH on the running server's devnet
  devnet   serve the embedded chain as JSON-RPC (default port 8545)
  migrate  bring the Postgres schema up to date and exit
  rotate-master-key  re-seal wallet keys and webhook secrets under a new master key (servers stopped)
  audit    export [--out file] | verify [file.jsonl]: the tamper-evident audit trail, checked offline
  mcp      the agent tools as an MCP server on stdio

Flags:
  --version, -v         print the version
  --help, -h            print help
${serverFlags}`

/** The version of `@agentwallet/koa`, from its package.json (beside `dist/`, or two levels above `src/cli/`). */
export function cliVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 4; depth++) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (name === '@agentwallet/koa' && version) return version
    }
    dir = dirname(dir)
  }
  return 'unknown'
}
