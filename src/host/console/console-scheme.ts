/**
 * A sign-in scheme as `/console/api/schemes` answers it (decision 0159). The console page reads
 * this type too (type-only), so it is kept in a file of its own that imports nothing.
 */
/** A sign-in scheme as the page shows it: what a card publishes of it, never a key or secret. */
export interface ConsoleScheme {
  name: string;
  type: 'http' | 'apiKey';
  scheme?: string;
  bearerFormat?: string;
  in?: 'header' | 'query' | 'cookie';
  /** The header, query parameter or cookie name of an API key. */
  keyName?: string;
  description?: string;
}
