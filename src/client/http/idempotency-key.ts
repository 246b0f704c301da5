/**
 * The `Idempotency-Key` of a send (docs/decisions/0137-client-transport.md): every
 * sendMessage / sendStreamingMessage carries one, generated once per logical send (or given by
 * the caller) and repeated on each automatic retry, so a server that deduplicates on it (Concord,
 * decision 0091) runs the task once however often the send is retried. The field is an
 * sf-string (draft-ietf-httpapi-idempotency-key-header §2: an RFC 8941 Item whose value is a
 * String), so the value goes out in double quotes.
 */

/** The longest field value Concord's server accepts (decision 0091), quotes included. */
const MAX_FIELD_LENGTH = 255;

/**
 * The field value for a send: the caller's `key` or a fresh UUID, serialised as an sf-string;
 * undefined when the caller turned keys off with `false`. A key RFC 8941 cannot carry (outside
 * printable ASCII) or longer than the server accepts is refused before anything is sent.
 */
export function idempotencyKeyField(key: string | false | undefined): string | undefined {
  if (key === false) return undefined;
  if (key === undefined) return `"${crypto.randomUUID()}"`;
  // RFC 8941 §3.3.3: printable ASCII (%x20-7E), with `"` and `\` escaped.
  if (key === '' || !/^[\x20-\x7e]+$/.test(key)) {
    throw new RangeError(
      `idempotencyKey must be 1 or more printable ASCII characters (RFC 8941 sf-string), got ${JSON.stringify(key)}`,
    );
  }
  const field = `"${key.replace(/[\\"]/g, '\\$&')}"`;
  if (field.length > MAX_FIELD_LENGTH) {
    throw new RangeError(
      `idempotencyKey is ${key.length} characters; at most ${MAX_FIELD_LENGTH} fit the Idempotency-Key field with its quotes`,
    );
  }
  return field;
}
