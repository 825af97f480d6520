import type { MetricFamily } from '@agentwallet/core'

/** The content type of the Prometheus text exposition format this renders. */
export const expositionContentType = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * Renders metric families in the Prometheus text exposition format 0.0.4: `# HELP`, `# TYPE`, then
 * one `name{labels} value` line per sample.
 * @example renderExposition([{ name: 'up', help: 'Up.', type: 'gauge', samples: [{ value: 1 }] }])
 */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = []
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`)
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {})
        .map(([name, value]) => `${name}="${escapeLabel(value)}"`)
        .join(',')
      lines.push(
        `${family.name}${sample.suffix ?? ''}${labels ? `{${labels}}` : ''} ${formatValue(sample.value)}`,
      )
    }
  }
  return `${lines.join('\n')}\n`
}

const escapeHelp = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')
const escapeLabel = (text: string) => escapeHelp(text).replaceAll('"', '\\"')

function formatValue(value: number): string {
  if (Number.isFinite(value)) return String(value)
  if (Number.isNaN(value)) return 'NaN'
  return value > 0 ? '+Inf' : '-Inf'
}
