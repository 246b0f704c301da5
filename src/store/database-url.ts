/** Database URLs in messages: shown without their password (decision 0100). */

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    // A password can also travel as a query parameter (libpq accepts `?password=`).
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    // Not a URL (a libpq key=value string, or garbage): say nothing of its content.
    return '(unparsable database URL)';
  }
}
