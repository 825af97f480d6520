import { BaseError } from '@agentwallet/core'
import {
  CreateKeyCommand,
  GetParametersForImportCommand,
  GetPublicKeyCommand,
  ImportKeyMaterialCommand,
  type KMSClient,
  ListKeysCommand,
  SignCommand,
} from '@aws-sdk/client-kms'
import type { Hex } from 'viem'
import { awsKmsError } from './awsKmsError.js'
import type { KmsBackend, KmsKey } from './kmsBackend.js'
import { ed25519PublicKeyFromSpki, publicKeyFromSpki } from './publicKeyFromSpki.js'
import { wrapForImport } from './wrapForImport.js'

type KeySpec = 'ECC_SECG_P256K1' | 'ECC_NIST_EDWARDS25519'
// Lets keys made by AgentWallet be listed in the console or by ListResourceTags, should Storage be lost.
const tags = [{ TagKey: 'agentwallet', TagValue: 'wallet' }]

export type AwsKmsBackendOptions = {
  /** Bound on `probe()`'s one ListKeys call (default 3000 ms). */
  probeTimeoutMs?: number | undefined
}

/**
 * AWS KMS calls of a KMS vault: CreateKey (ECC_SECG_P256K1, SIGN_VERIFY), GetPublicKey, Sign of a
 * DIGEST with ECDSA_SHA_256, and import through GetParametersForImport / ImportKeyMaterial; Ed25519
 * keys are CreateKey ECC_NIST_EDWARDS25519 and Sign of the RAW message with ED25519_SHA_512.
 * @example const backend = awsKmsBackend(new KMSClient({ region: 'eu-west-1' }))
 */
export function awsKmsBackend(client: KMSClient, options: AwsKmsBackendOptions = {}): KmsBackend {
  const call = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw awsKmsError(error, operation)
    }
  }

  const spkiOf = async (keyId: string): Promise<Uint8Array> => {
    const output = await call('GetPublicKey', () => client.send(new GetPublicKeyCommand({ KeyId: keyId })))
    if (!output.PublicKey) throw missing('GetPublicKey', 'PublicKey')
    return output.PublicKey
  }
  const publicKeyOf = async (keyId: string): Promise<KmsKey> => ({
    keyId,
    publicKey: publicKeyFromSpki(await spkiOf(keyId)),
  })

  const createKey = async (
    origin: 'AWS_KMS' | 'EXTERNAL',
    keySpec: KeySpec = 'ECC_SECG_P256K1',
  ): Promise<string> => {
    const output = await call('CreateKey', () =>
      client.send(
        new CreateKeyCommand({
          KeySpec: keySpec,
          KeyUsage: 'SIGN_VERIFY',
          Origin: origin,
          Description: 'AgentWallet wallet key',
          Tags: tags,
        }),
      ),
    )
    const keyId = output.KeyMetadata?.KeyId
    if (!keyId) throw missing('CreateKey', 'KeyMetadata.KeyId')
    return keyId
  }

  const sign = async (
    keyId: string,
    message: Uint8Array,
    messageType: 'DIGEST' | 'RAW',
    algorithm: 'ECDSA_SHA_256' | 'ED25519_SHA_512',
  ): Promise<Uint8Array> => {
    const output = await call('Sign', () =>
      client.send(
        new SignCommand({
          KeyId: keyId,
          Message: message,
          MessageType: messageType,
          SigningAlgorithm: algorithm,
        }),
      ),
    )
    if (!output.Signature) throw missing('Sign', 'Signature')
    return output.Signature
  }

  return {
    service: 'aws-kms',
    async createKey() {
      return publicKeyOf(await createKey('AWS_KMS'))
    },
    async importKey(privateKey: Hex) {
      const keyId = await createKey('EXTERNAL')
      const parameters = await call('GetParametersForImport', () =>
        client.send(
          new GetParametersForImportCommand({
            KeyId: keyId,
            WrappingAlgorithm: 'RSAES_OAEP_SHA_256',
            WrappingKeySpec: 'RSA_3072',
          }),
        ),
      )
      if (!parameters.PublicKey || !parameters.ImportToken)
        throw missing('GetParametersForImport', 'PublicKey')
      const encrypted = wrapForImport(privateKey, parameters.PublicKey)
      await call('ImportKeyMaterial', () =>
        client.send(
          new ImportKeyMaterialCommand({
            KeyId: keyId,
            ImportToken: parameters.ImportToken,
            EncryptedKeyMaterial: encrypted,
            ExpirationModel: 'KEY_MATERIAL_DOES_NOT_EXPIRE',
          }),
        ),
      )
      return publicKeyOf(keyId)
    },
    signDigest: (keyId, digest) => sign(keyId, digest, 'DIGEST', 'ECDSA_SHA_256'),
    ed25519: {
      async createKey() {
        const keyId = await createKey('AWS_KMS', 'ECC_NIST_EDWARDS25519')
        return { keyId, publicKey: ed25519PublicKeyFromSpki(await spkiOf(keyId)) }
      },
      // ED25519_SHA_512 is pure Ed25519 and takes the message itself (RAW, up to 4096 bytes);
      // ED25519_PH_SHA_512 would be Ed25519ph, which Solana does not verify.
      sign: (keyId, message) => sign(keyId, message, 'RAW', 'ED25519_SHA_512'),
    },
    async probe() {
      const abortSignal = AbortSignal.timeout(options.probeTimeoutMs ?? 3000)
      await call('ListKeys', () => client.send(new ListKeysCommand({ Limit: 1 }), { abortSignal }))
    },
  }
}

const missing = (operation: string, field: string) =>
  new BaseError('vault_error', 'AWS KMS answered without a field it always sends', {
    details: { service: 'aws-kms', operation, field },
  })
