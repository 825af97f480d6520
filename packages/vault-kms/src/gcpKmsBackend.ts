import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { BaseError } from '@agentwallet/core'
import type { KeyManagementServiceClient } from '@google-cloud/kms'
import type { Hex } from 'viem'
import { gcpKmsError } from './gcpKmsError.js'
import type { KmsBackend, KmsKey } from './kmsBackend.js'
import { ed25519PublicKeyFromSpki, publicKeyFromSpki } from './publicKeyFromSpki.js'
import { wrapForImport } from './wrapForImport.js'

type SigningAlgorithm = 'EC_SIGN_SECP256K1_SHA256' | 'EC_SIGN_ED25519'
const algorithm: SigningAlgorithm = 'EC_SIGN_SECP256K1_SHA256'
/** Pure Ed25519 (RFC 8032): AsymmetricSign takes the message in `data`, not a digest. */
const ed25519Algorithm: SigningAlgorithm = 'EC_SIGN_ED25519'
// Lets keys made by AgentWallet be listed (filter labels.agentwallet=wallet), should Storage be lost.
const labels = { agentwallet: 'wallet' }

export type GcpKmsBackendOptions = {
  /** The key ring new keys go in: `projects/<p>/locations/<l>/keyRings/<r>` (it must exist). */
  keyRing: string
  /** `HSM` (default) or `SOFTWARE`: where Google keeps the key. */
  protectionLevel?: 'HSM' | 'SOFTWARE' | undefined
  /** Bound on each call, retries included (default 30 s). */
  timeoutMs?: number | undefined
  /** Bound on `probe()`'s one GetKeyRing call (default 3000 ms). */
  probeTimeoutMs?: number | undefined
  /** Pause between reads of a key version or import job that Google is still generating (default 250 ms). */
  pollIntervalMs?: number | undefined
}

/**
 * Google Cloud KMS calls of a KMS vault: CreateCryptoKey (EC_SIGN_SECP256K1_SHA256), GetPublicKey
 * (PEM), AsymmetricSign of a SHA-256-sized digest, and import through an import job (RSA-OAEP-3072-SHA256);
 * Ed25519 keys are EC_SIGN_ED25519 versions, AsymmetricSign taking the message itself (`data`).
 * @example const backend = gcpKmsBackend(new KeyManagementServiceClient(), { keyRing })
 */
export function gcpKmsBackend(client: KeyManagementServiceClient, options: GcpKmsBackendOptions): KmsBackend {
  const { keyRing } = options
  const protectionLevel = options.protectionLevel ?? 'HSM'
  const callOptions = { timeout: options.timeoutMs ?? 30_000 }
  const pollIntervalMs = options.pollIntervalMs ?? 250

  const call = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw gcpKmsError(error, operation)
    }
  }

  /** Reads until `read` gives a state other than `pending`; a real HSM takes seconds to generate. */
  const settle = async (what: string, read: () => Promise<string>, pending: string, ready: string) => {
    for (let attempt = 0; attempt < 240; attempt += 1) {
      const state = await read()
      if (state === ready) return
      if (state !== pending) {
        throw new BaseError('vault_error', `Google Cloud KMS left the ${what} ${state}`, {
          details: { service: 'gcp-kms', state },
        })
      }
      await sleep(pollIntervalMs)
    }
    throw new BaseError('vault_unavailable', `Google Cloud KMS is still preparing the ${what}`, {
      details: { service: 'gcp-kms' },
    })
  }

  const versionState = async (name: string) => {
    const [version] = await call('GetCryptoKeyVersion', () =>
      client.getCryptoKeyVersion({ name }, callOptions),
    )
    return String(version.state)
  }

  const pemOf = async (versionName: string, pending: string): Promise<string> => {
    await settle('key version', () => versionState(versionName), pending, 'ENABLED')
    const [output] = await call('GetPublicKey', () => client.getPublicKey({ name: versionName }, callOptions))
    if (!output.pem) throw missing('GetPublicKey', 'pem')
    return output.pem
  }
  const publicKeyOf = async (versionName: string, pending: string): Promise<KmsKey> => ({
    keyId: versionName,
    publicKey: publicKeyFromSpki(await pemOf(versionName, pending)),
  })

  const signed = (output: { signature?: Uint8Array | string | null }) => {
    if (!output.signature) throw missing('AsymmetricSign', 'signature')
    return typeof output.signature === 'string' ? Buffer.from(output.signature, 'base64') : output.signature
  }

  const createCryptoKey = async (importOnly: boolean, keyAlgorithm = algorithm): Promise<string> => {
    const [key] = await call('CreateCryptoKey', () =>
      client.createCryptoKey(
        {
          parent: keyRing,
          cryptoKeyId: `agentwallet-${randomUUID()}`,
          skipInitialVersionCreation: importOnly,
          cryptoKey: {
            purpose: 'ASYMMETRIC_SIGN',
            versionTemplate: { algorithm: keyAlgorithm, protectionLevel },
            importOnly,
            labels,
          },
        },
        callOptions,
      ),
    )
    if (!key.name) throw missing('CreateCryptoKey', 'name')
    return key.name
  }

  const activeImportJob = async (): Promise<{ name: string; pem: string }> => {
    const [job] = await call('CreateImportJob', () =>
      client.createImportJob(
        {
          parent: keyRing,
          importJobId: `agentwallet-${randomUUID()}`,
          importJob: { importMethod: 'RSA_OAEP_3072_SHA256', protectionLevel },
        },
        callOptions,
      ),
    )
    const name = job.name
    if (!name) throw missing('CreateImportJob', 'name')
    let pem = job.publicKey?.pem ?? undefined
    await settle(
      'import job',
      async () => {
        const [read] = await call('GetImportJob', () => client.getImportJob({ name }, callOptions))
        pem = read.publicKey?.pem ?? undefined
        return String(read.state)
      },
      'PENDING_GENERATION',
      'ACTIVE',
    )
    if (!pem) throw missing('GetImportJob', 'publicKey.pem')
    return { name, pem }
  }

  return {
    service: 'gcp-kms',
    async createKey() {
      // CreateCryptoKey makes version 1 too; with HSM protection it is generated asynchronously.
      return publicKeyOf(`${await createCryptoKey(false)}/cryptoKeyVersions/1`, 'PENDING_GENERATION')
    },
    async importKey(privateKey: Hex) {
      const job = await activeImportJob()
      const parent = await createCryptoKey(true)
      const [version] = await call('ImportCryptoKeyVersion', () =>
        client.importCryptoKeyVersion(
          { parent, algorithm, importJob: job.name, wrappedKey: wrapForImport(privateKey, job.pem) },
          callOptions,
        ),
      )
      if (!version.name) throw missing('ImportCryptoKeyVersion', 'name')
      return publicKeyOf(version.name, 'PENDING_IMPORT')
    },
    async signDigest(keyId, digest) {
      const [output] = await call('AsymmetricSign', () =>
        client.asymmetricSign({ name: keyId, digest: { sha256: digest } }, callOptions),
      )
      return signed(output)
    },
    ed25519: {
      async createKey() {
        const versionName = `${await createCryptoKey(false, ed25519Algorithm)}/cryptoKeyVersions/1`
        const pem = await pemOf(versionName, 'PENDING_GENERATION')
        return { keyId: versionName, publicKey: ed25519PublicKeyFromSpki(pem) }
      },
      async sign(keyId, message) {
        const [output] = await call('AsymmetricSign', () =>
          client.asymmetricSign({ name: keyId, data: message }, callOptions),
        )
        return signed(output)
      },
    },
    async probe() {
      await call('GetKeyRing', () =>
        client.getKeyRing({ name: keyRing }, { timeout: options.probeTimeoutMs ?? 3000, maxRetries: 0 }),
      )
    },
  }
}

const missing = (operation: string, field: string) =>
  new BaseError('vault_error', 'Google Cloud KMS answered without a field it always sends', {
    details: { service: 'gcp-kms', operation, field },
  })
