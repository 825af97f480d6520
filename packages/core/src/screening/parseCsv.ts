/**
 * Rows of RFC 4180 CSV: fields split on commas, a quoted field may hold commas, line breaks and `""`
 * (one quote). Each row carries the line it starts on (1-based). Blank lines are dropped.
 * @example parseCsv('a,"b, c"\n') // [{ line: 1, fields: ['a', 'b, c'] }]
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let rowLine = 1
  const endRow = () => {
    fields.push(field)
    if (fields.length > 1 || fields[0]!.trim() !== '') rows.push({ line: rowLine, fields })
    fields = []
    field = ''
  }
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"'
        index++
      } else if (char === '"') quoted = false
      else {
        if (char === '\n') line++
        field += char
      }
    } else if (char === '"' && field.trim() === '') {
      field = ''
      quoted = true
    } else if (char === ',') {
      fields.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++
      endRow()
      line++
      rowLine = line
    } else field += char
  }
  if (field !== '' || fields.length > 0) endRow()
  return rows
}
