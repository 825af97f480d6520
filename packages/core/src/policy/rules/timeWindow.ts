import { type TimeWindowRule, weekdays } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

type Weekday = (typeof weekdays)[number]
// Building an Intl.DateTimeFormat costs tens of µs; one per time zone is reused.
const formatters = new Map<string, Intl.DateTimeFormat>()
// Zone offsets are whole minutes, so a zone's local time only changes with the UTC minute.
const lastByZone = new Map<string, { minute: number; local: LocalTime }>()

type LocalTime = { day: Weekday; minute: number; label: string }

/** Denies outside the weekly window (`from` inclusive, `to` exclusive, in `tz`; may span midnight). */
export const timeWindow: RuleEvaluator<TimeWindowRule> = (rule, _intent, context) => {
  const { day, minute, label } = localTime(context.now, rule.tz)
  const from = toMinutes(rule.from)
  const to = toMinutes(rule.to)
  const days: readonly string[] = rule.days
  const inside =
    from < to
      ? days.includes(day) && minute >= from && minute < to
      : // Overnight: the late part belongs to today's window, the early part to yesterday's.
        (minute >= from && days.includes(day)) || (minute < to && days.includes(previousDay(day)))
  const details = { localTime: label, tz: rule.tz, days: rule.days, from: rule.from, to: rule.to }
  if (!inside) {
    return { decision: 'deny', reason: `Outside the allowed time window (${label} ${rule.tz})`, details }
  }
  return { decision: 'allow', reason: 'Inside the allowed time window', details }
}

function localTime(now: Date, tz: string): LocalTime {
  const utcMinute = Math.floor(now.getTime() / 60_000)
  const last = lastByZone.get(tz)
  if (last?.minute === utcMinute) return last.local
  const local = formatLocalTime(now, tz)
  lastByZone.set(tz, { minute: utcMinute, local })
  return local
}

function formatLocalTime(now: Date, tz: string): LocalTime {
  let formatter = formatters.get(tz)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(tz, formatter)
  }
  let day = 'mon'
  let hour = '00'
  let minute = '00'
  for (const part of formatter.formatToParts(now)) {
    if (part.type === 'weekday') day = part.value.toLowerCase()
    else if (part.type === 'hour') hour = part.value
    else if (part.type === 'minute') minute = part.value
  }
  return {
    day: day as Weekday,
    minute: Number(hour) * 60 + Number(minute),
    label: `${day} ${hour}:${minute}`,
  }
}

function toMinutes(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))
}

function previousDay(day: Weekday): Weekday {
  return weekdays[(weekdays.indexOf(day) + 6) % 7]!
}
