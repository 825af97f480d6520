import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import {
  derSignature,
  ed25519Signature,
  type FakeEd25519Key,
  type FakeHttpReply,
  type FakeSecp256k1Key,
  newFakeEd25519Key,
  newFakeKey,
  publicKeyObject,
  rsaWrappingKey,
  startFakeHttp,
} from './fakeKmsKeys.js'

/**
 * A fake AWS KMS for tests: the JSON 1.1 wire protocol (`POST /`, `X-Amz-Target: TrentService.<Op>`)
 * of the calls the KMS vault makes — CreateKey, GetPublicKey, Sign, ListKeys, GetParametersForImport,
 * ImportKeyMaterial — over real secp256k1 keys (and Ed25519 ones: ECC_NIST_EDWARDS25519, Sign of a RAW
 * message with ED25519_SHA_512; not imported), and a SigV4 check of every request against the
 * test's known secret (a request signed with another secret is refused as AWS would).
 * Not emulated: key policies and IAM, aliases, grants, key rotation and deletion, multi-region,
 * quotas, any other operation or key spec, and the exact text of AWS's error messages.
 */
export type FakeAwsKms = {
  url: string
  region: string
  credentials: { accessKeyId: string; secretAccessKey: string }
  /** Calls per operation name, and requests refused for a bad signature. */
  calls: Record<string, number>
  badSigV4: number
  /** While set, every request fails so: `throttle` (400 ThrottlingException), `internal` (500). */
  fault: 'throttle' | 'internal' | undefined
  /** The next N Sign calls return a well-formed signature of another digest. */
  badSignatures: number
  close(): Promise<void>
}

type Key = {
  id: string
  origin: string
  spec: 'ECC_SECG_P256K1' | 'ECC_NIST_EDWARDS25519'
  material: FakeSecp256k1Key | FakeEd25519Key | undefined
  wrapping?: { token: string; key: ReturnType<typeof rsaWrappingKey> }
}

export async function startFakeAwsKms(): Promise<FakeAwsKms> {
  const keys = new Map<string, Key>()
  const region = 'eu-west-1'
  const credentials = { accessKeyId: 'AKIAFAKEKMSTEST', secretAccessKey: randomBytes(20).toString('hex') }

  const error = (status: number, type: string): FakeHttpReply => ({
    status,
    headers: { 'x-amzn-errortype': type },
    body: { __type: type, message: `fake ${type}` },
  })
  const ok = (body: unknown): FakeHttpReply => ({ status: 200, body })
  const arn = (id: string) => `arn:aws:kms:${region}:111122223333:key/${id}`

  /** Pure Ed25519 of the RAW message (at most 4096 bytes), 64 bytes as RFC 8032 encodes it. */
  const signEd25519 = (
    key: Key,
    material: FakeEd25519Key,
    input: Record<string, unknown>,
    message: Buffer,
  ) => {
    if (input.MessageType !== 'RAW' || input.SigningAlgorithm !== 'ED25519_SHA_512' || message.length > 4096)
      return error(400, 'ValidationException')
    const corrupt = fake.badSignatures > 0
    if (corrupt) fake.badSignatures -= 1
    const signature = Buffer.from(ed25519Signature(material, message, corrupt))
    return ok({
      KeyId: arn(key.id),
      Signature: signature.toString('base64'),
      SigningAlgorithm: 'ED25519_SHA_512',
    })
  }

  const operations: Record<string, (input: Record<string, unknown>) => FakeHttpReply> = {
    CreateKey(input) {
      const spec = input.KeySpec
      if (
        (spec !== 'ECC_SECG_P256K1' && spec !== 'ECC_NIST_EDWARDS25519') ||
        input.KeyUsage !== 'SIGN_VERIFY'
      )
        return error(400, 'ValidationException')
      const origin = String(input.Origin ?? 'AWS_KMS')
      // Importing Ed25519 key material is not emulated (the vault does not do it).
      if (spec === 'ECC_NIST_EDWARDS25519' && origin !== 'AWS_KMS')
        return error(400, 'UnsupportedOperationException')
      const id = randomUUID()
      const material =
        origin === 'EXTERNAL' ? undefined : spec === 'ECC_SECG_P256K1' ? newFakeKey() : newFakeEd25519Key()
      keys.set(id, { id, origin, spec, material })
      const state = origin === 'EXTERNAL' ? 'PendingImport' : 'Enabled'
      return ok({
        KeyMetadata: {
          KeyId: id,
          Arn: arn(id),
          KeySpec: input.KeySpec,
          KeyUsage: input.KeyUsage,
          KeyState: state,
          Origin: origin,
        },
      })
    },
    GetPublicKey(input) {
      const key = keys.get(String(input.KeyId))
      if (!key) return error(400, 'NotFoundException')
      if (!key.material) return error(400, 'KMSInvalidStateException')
      const der = publicKeyObject(key.material).export({ format: 'der', type: 'spki' })
      return ok({
        KeyId: arn(key.id),
        PublicKey: der.toString('base64'),
        KeySpec: key.spec,
        KeyUsage: 'SIGN_VERIFY',
        SigningAlgorithms:
          'ed25519' in key.material ? ['ED25519_SHA_512', 'ED25519_PH_SHA_512'] : ['ECDSA_SHA_256'],
      })
    },
    Sign(input) {
      const key = keys.get(String(input.KeyId))
      if (!key) return error(400, 'NotFoundException')
      if (!key.material) return error(400, 'KMSInvalidStateException')
      const digest = Buffer.from(String(input.Message), 'base64')
      if ('ed25519' in key.material) return signEd25519(key, key.material, input, digest)
      if (
        input.MessageType !== 'DIGEST' ||
        input.SigningAlgorithm !== 'ECDSA_SHA_256' ||
        digest.length !== 32
      )
        return error(400, 'ValidationException')
      const corrupt = fake.badSignatures > 0
      if (corrupt) fake.badSignatures -= 1
      const signature = Buffer.from(derSignature(key.material, digest, corrupt))
      return ok({
        KeyId: arn(key.id),
        Signature: signature.toString('base64'),
        SigningAlgorithm: 'ECDSA_SHA_256',
      })
    },
    ListKeys() {
      return ok({
        Keys: [...keys.keys()].slice(0, 1).map((id) => ({ KeyId: id, KeyArn: arn(id) })),
        Truncated: false,
      })
    },
    GetParametersForImport(input) {
      const key = keys.get(String(input.KeyId))
      if (!key) return error(400, 'NotFoundException')
      if (key.origin !== 'EXTERNAL' || key.material) return error(400, 'UnsupportedOperationException')
      if (input.WrappingAlgorithm !== 'RSAES_OAEP_SHA_256' || input.WrappingKeySpec !== 'RSA_3072')
        return error(400, 'ValidationException')
      key.wrapping = { token: randomBytes(32).toString('base64'), key: rsaWrappingKey(3072) }
      const publicKey = key.wrapping.key.publicKey.export({ format: 'der', type: 'spki' })
      return ok({
        KeyId: arn(key.id),
        ImportToken: key.wrapping.token,
        PublicKey: publicKey.toString('base64'),
        ParametersValidTo: Date.now() / 1000 + 86_400,
      })
    },
    ImportKeyMaterial(input) {
      const key = keys.get(String(input.KeyId))
      if (!key?.wrapping) return error(400, 'NotFoundException')
      if (input.ImportToken !== key.wrapping.token) return error(400, 'InvalidImportTokenException')
      try {
        key.material = key.wrapping.key.unwrap(Buffer.from(String(input.EncryptedKeyMaterial), 'base64'))
      } catch {
        return error(400, 'IncorrectKeyMaterialException')
      }
      return ok({ KeyId: arn(key.id), KeyMaterialId: randomUUID() })
    },
  }

  const handle = (request: IncomingMessage, body: Buffer): FakeHttpReply => {
    if (!verifySigV4(request, body, credentials, region)) {
      fake.badSigV4 += 1
      return error(400, 'InvalidSignatureException')
    }
    const target = String(request.headers['x-amz-target'] ?? '')
    const operation = target.startsWith('TrentService.') ? target.slice('TrentService.'.length) : ''
    fake.calls[operation] = (fake.calls[operation] ?? 0) + 1
    if (fake.fault === 'throttle') return error(400, 'ThrottlingException')
    if (fake.fault === 'internal') return error(500, 'KMSInternalException')
    const run = operations[operation]
    if (!run || request.headers['content-type'] !== 'application/x-amz-json-1.1')
      return error(400, 'UnknownOperationException')
    return run(JSON.parse(body.toString('utf8')) as Record<string, unknown>)
  }

  const server = await startFakeHttp(handle)
  const fake: FakeAwsKms = {
    url: server.url,
    region,
    credentials,
    calls: {},
    badSigV4: 0,
    fault: undefined,
    badSignatures: 0,
    close: server.close,
  }
  return fake
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/**
 * True when the request carries a well-formed `AWS4-HMAC-SHA256` Authorization header for this
 * access key, region and `kms`, whose signature over the canonical request is the one the secret gives.
 */
export function verifySigV4(
  request: IncomingMessage,
  body: Buffer,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
): boolean {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      String(request.headers.authorization ?? ''),
    )
  const amzDate = String(request.headers['x-amz-date'] ?? '')
  if (!match || match[1] !== credentials.accessKeyId || match[3] !== region || match[4] !== 'kms')
    return false
  const [, , date, , , signedHeaders, signature] = match
  if (!amzDate.startsWith(date!)) return false
  const names = signedHeaders!.split(';')
  if (!names.includes('host') || !names.includes('x-amz-date')) return false
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('')
  const [path, query = ''] = (request.url ?? '/').split('?')
  const canonicalRequest = [request.method, path, query, canonicalHeaders, signedHeaders, sha256(body)].join(
    '\n',
  )
  const scope = `${date}/${region}/kms/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n')
  const signingKey = ['kms', 'aws4_request'].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${credentials.secretAccessKey}`, date!), region),
  )
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex') === signature
}
