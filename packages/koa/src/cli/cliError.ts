/** A startup problem the operator can fix; printed as one line, without a stack. */
export class CliError extends Error {
  override name = 'CliError'
}
