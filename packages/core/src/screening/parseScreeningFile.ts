import { parseCsv } from './parseCsv.js'
import type { screeningFileFormats } from './screeningSchemas.js'

/** An address a file names, where (its line; an XML entry's line too), and why it is listed, if the file says. */
export type ScreeningFileRow = { line: number; address: string; reason?: string | undefined }

const digitalCurrency = /Digital Currency Address - ([A-Za-z0-9]+)[\s:]+([^\s;,]+)/g

/**
 * The addresses of an import file, in its format:
 * - `csv`: `address[,reason]` rows; a first row whose first field is `address` is a header.
 * - `ofac_sdn_csv`: OFAC's sdn.csv (no header: ent_num, SDN_Name, SDN_Type, Program, …, Remarks):
 *   each "Digital Currency Address - <currency> <address>" of a row's remarks, reason "OFAC SDN: <name>
 *   (ent_num <n>, <program>; <currency>)".
 * - `ofac_sdn_xml`: OFAC's sdn.xml: each `<id>` whose `<idType>` is "Digital Currency Address - …",
 *   reason from its `<sdnEntry>` the same way.
 * Any currency is returned; the import keeps those in its family's address form.
 * @example parseScreeningFile('csv', 'address,reason\n0xabc…,drainer\n') // [{ line: 2, address: '0xabc…', reason: 'drainer' }]
 */
export function parseScreeningFile(
  format: (typeof screeningFileFormats)[number],
  content: string,
): ScreeningFileRow[] {
  if (format === 'csv') return csvRows(content)
  if (format === 'ofac_sdn_csv') return sdnCsvRows(content)
  return sdnXmlRows(content)
}

function csvRows(content: string): ScreeningFileRow[] {
  const rows = parseCsv(content)
  const start = rows[0]?.fields[0]?.trim().toLowerCase() === 'address' ? 1 : 0
  return rows.slice(start).map(({ line, fields }) => {
    const reason = fields.slice(1).join(',').trim()
    return { line, address: (fields[0] ?? '').trim(), ...(reason ? { reason } : {}) }
  })
}

function sdnCsvRows(content: string): ScreeningFileRow[] {
  return parseCsv(content).flatMap(({ line, fields }) => {
    const [entNum = '', name = '', , program = ''] = fields.map(cleanSdnField)
    const remarks = fields[11] ?? ''
    return [...remarks.matchAll(digitalCurrency)].map(([, currency, address]) => ({
      line,
      address: address!,
      reason: sdnReason(name, `ent_num ${entNum}`, program, currency!),
    }))
  })
}

function sdnXmlRows(content: string): ScreeningFileRow[] {
  const rows: ScreeningFileRow[] = []
  const lineAt = lineCounter(content)
  for (const entry of content.matchAll(/<sdnEntry>([\s\S]*?)<\/sdnEntry>/g)) {
    const body = entry[1]!
    const uid = tag(body, 'uid')
    const name = [tag(body, 'firstName'), tag(body, 'lastName')].filter(Boolean).join(' ')
    const programs = [...body.matchAll(/<program>([^<]*)<\/program>/g)].map((match) => decodeXml(match[1]!))
    for (const id of body.matchAll(/<id>([\s\S]*?)<\/id>/g)) {
      const type = /^Digital Currency Address - ([A-Za-z0-9]+)$/.exec(tag(id[1]!, 'idType'))
      const address = tag(id[1]!, 'idNumber')
      if (!type || !address) continue
      rows.push({
        line: lineAt(entry.index! + 10 + id.index!),
        address,
        reason: sdnReason(name, `uid ${uid}`, programs.join(', '), type[1]!),
      })
    }
  }
  return rows
}

function sdnReason(name: string, id: string, program: string, currency: string): string {
  return `OFAC SDN: ${name || 'unnamed'} (${id}${program ? `, ${program}` : ''}; ${currency})`.slice(0, 500)
}

// sdn.csv writes an empty field as "-0-".
function cleanSdnField(value: string): string {
  const trimmed = value.trim()
  return trimmed === '-0-' ? '' : trimmed
}

function tag(body: string, name: string): string {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)
  return match ? decodeXml(match[1]!.trim()) : ''
}

function decodeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&')
}

/** Line numbers by offset, counted forward once (offsets are asked in increasing order). */
function lineCounter(text: string): (offset: number) => number {
  let line = 1
  let at = 0
  return (offset) => {
    for (; at < offset && at < text.length; at++) if (text[at] === '\n') line++
    return line
  }
}
