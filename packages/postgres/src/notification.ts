/** A committed range of one stream: [stream, first seq, last seq]. */
export type SeqRange = [stream: string, first: number, last: number]

/** The NOTIFY payload of one commit: who committed it and which seqs. */
export type Notification = { origin: string; ranges: SeqRange[] }

/** NOTIFY payloads must stay under 8000 bytes; leave room for the envelope. */
const maxPayload = 7000

/**
 * The payloads announcing a commit's events, split so each fits a NOTIFY.
 * @example encodeNotifications('p1', [['wallet:0xabc', 4, 5]]) // ['{"o":"p1","r":[["wallet:0xabc",4,5]]}']
 */
export const encodeNotifications = (origin: string, ranges: readonly SeqRange[]): string[] => {
  const payloads: string[] = []
  let batch: SeqRange[] = []
  const flush = () => {
    if (batch.length > 0) payloads.push(JSON.stringify({ o: origin, r: batch }))
    batch = []
  }
  for (const range of ranges) {
    batch.push(range)
    if (JSON.stringify({ o: origin, r: batch }).length > maxPayload && batch.length > 1) {
      batch.pop()
      flush()
      batch.push(range)
    }
  }
  flush()
  return payloads
}

/**
 * A NOTIFY payload read back; undefined when it is not ours.
 * @example decodeNotification('{"o":"p1","r":[["s",1,2]]}') // { origin: 'p1', ranges: [['s', 1, 2]] }
 */
export const decodeNotification = (payload: string | undefined): Notification | undefined => {
  try {
    const parsed = JSON.parse(payload ?? '') as { o?: unknown; r?: unknown }
    if (typeof parsed.o !== 'string' || !Array.isArray(parsed.r)) return undefined
    return { origin: parsed.o, ranges: parsed.r as SeqRange[] }
  } catch {
    return undefined
  }
}
