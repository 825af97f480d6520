import { createHash, randomBytes, webcrypto } from 'node:crypto'
import * as asn1js from 'asn1js'
import * as pkijs from 'pkijs'
import { checkpointMessage } from './auditHashes.js'

const sha256Oid = '2.16.840.1.101.3.4.2.1'
const tstInfoOid = '1.2.840.113549.1.9.16.1.4'

/** The payload of an `audit.timestamp` entry: an RFC 3161 token over the chain value `head` through `upto`. */
export type TimestampPayload = { upto: number; head: string; authority: string; token: string }

/** What a timestamp token proves, once checked: the time the authority saw the head at, and who signed it. */
export type CheckedTimestamp = { genTime: Date; signer: string }

function useNodeCrypto(): void {
  // pkijs needs a WebCrypto engine; Node's, named once (set in a call, not at import).
  pkijs.setEngine(
    'node',
    new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as typeof globalThis.crypto }),
  )
}

/**
 * What a timestamp authority is asked to timestamp for a tenant's head (its sha-256): the message a
 * checkpoint signs, so a token names tenant, position and chain value together.
 * @example timestampedMessage('default', 101, head)
 */
export function timestampedMessage(tenantId: string, upto: number, head: string): Buffer {
  return checkpointMessage(tenantId, upto, head)
}

/**
 * Asks an RFC 3161 authority (its URL, HTTP POST of `application/timestamp-query`) to timestamp a
 * message's sha-256; answers the token (DER, base64) once its status grants it and it checks.
 * @example const token = await requestTimestamp('https://tsa.example/tsr', timestampedMessage(tenantId, upto, head))
 */
export async function requestTimestamp(
  url: string,
  message: Uint8Array,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  useNodeCrypto()
  const imprint = createHash('sha256').update(message).digest()
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: sha256Oid }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: randomBytes(8) }),
    certReq: true,
  })
  const response = await fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query' },
    body: Buffer.from(request.toSchema().toBER(false)),
    signal: AbortSignal.timeout(10_000),
  })
  if (!response.ok) throw new TimestampError(`the timestamp authority answered HTTP ${response.status}`)
  const answer = pkijs.TimeStampResp.fromBER(await response.arrayBuffer())
  if (answer.status.status > 1 || !answer.timeStampToken)
    throw new TimestampError(`the timestamp authority refused (status ${answer.status.status})`)
  const token = Buffer.from(answer.timeStampToken.toSchema().toBER(false)).toString('base64')
  await checkTimestampToken(token, message)
  return token
}

/**
 * Checks a token: its TSTInfo names the sha-256 of `message`, and its signature verifies with the
 * certificate it carries, which must be one of `trusted` (the authority's, DER) when given. Throws
 * `TimestampError` otherwise; answers the time and the signer's subject.
 * @example const { genTime } = await checkTimestampToken(payload.token, timestampedMessage(tenantId, upto, head))
 */
export async function checkTimestampToken(
  token: string,
  message: Uint8Array,
  trusted: readonly Uint8Array[] = [],
): Promise<CheckedTimestamp> {
  useNodeCrypto()
  const imprint = createHash('sha256').update(message).digest()
  let signed: pkijs.SignedData
  let info: pkijs.TSTInfo
  try {
    const content = pkijs.ContentInfo.fromBER(Buffer.from(token, 'base64'))
    signed = new pkijs.SignedData({ schema: content.content })
    if (signed.encapContentInfo.eContentType !== tstInfoOid) throw new TimestampError('not a timestamp token')
    const eContent = signed.encapContentInfo.eContent!.getValue()
    info = pkijs.TSTInfo.fromBER(eContent)
    // pkijs keeps eContent as a constructed OCTET STRING, whose bytes its TSTInfo check does not
    // read (`valueHexView` is empty): the same bytes, primitive, as DER encodes them.
    signed.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: eContent })
  } catch (error) {
    if (error instanceof TimestampError) throw error
    throw new TimestampError('the token is malformed')
  }
  const named = Buffer.from(info.messageImprint.hashedMessage.getValue())
  if (info.messageImprint.hashAlgorithm.algorithmId !== sha256Oid || !named.equals(Buffer.from(imprint)))
    throw new TimestampError('the token timestamps another digest')
  const verified = await signed
    .verify({ signer: 0, data: new Uint8Array(message).buffer, checkChain: false, extendedMode: true })
    .catch(() => ({ signatureVerified: false, signerCertificate: undefined }))
  if (!verified.signatureVerified) throw new TimestampError('its signature does not verify')
  const certificate = verified.signerCertificate
  const der = certificate && Buffer.from(certificate.toSchema().toBER(false))
  // The authority's certificate pinned: the token's signer must be one of those given.
  if (trusted.length > 0 && !trusted.some((pinned) => der?.equals(Buffer.from(pinned))))
    throw new TimestampError('it is signed by a certificate other than the authority’s given')
  const signer = certificate?.subject.typesAndValues
    .map((part) => String(part.value.valueBlock.value))
    .join(', ')
  return { genTime: info.genTime, signer: signer ?? 'unknown' }
}

/** A token that is malformed, names another digest, or whose signature does not verify. */
export class TimestampError extends Error {
  override name = 'TimestampError' as const
}
