export type LimitBarProps = {
  label: string
  /** Used so far, and the limit, as decimal strings in the same unit. */
  used: string
  limit: string
  unit: string
  note?: string | undefined
}

/**
 * One limit as a native <meter> (announced with its figures; the browser colours it green, then
 * amber above 80 %, red at the limit). The exact figures are always in the text beside it.
 */
export function LimitBar({ label, used, limit, unit, note }: LimitBarProps) {
  const max = Number(limit)
  const text = `${used} of ${limit} ${unit}`.trim()
  return (
    <div class="limit">
      <div class="limit-head">
        <span>{label}</span>
        <span class="limit-figures">{text}</span>
      </div>
      <meter
        aria-label={label}
        aria-valuetext={text}
        min={0}
        max={max > 0 ? max : 1}
        value={Math.min(Number(used), max > 0 ? max : 1)}
        low={max * 0.8}
        high={max * 0.9999}
        optimum={0}
      />
      {note && <p class="muted small">{note}</p>}
    </div>
  )
}
