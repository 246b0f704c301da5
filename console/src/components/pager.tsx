/**
 * Paging by `nextPageToken` (ListTasks, A2A 1.0 §3.1.4, and the owner APIs' lists): the tokens
 * read so far, the last one the page shown (`''` is the first page), and the buttons that move on.
 */
import { useState } from 'preact/hooks';

export interface Pages {
  /** The token of the page shown; `''` for the first. */
  token: string;
  /** 1 for the first page. */
  number: number;
  first(): void;
  next(token: string): void;
}

export function usePages(): Pages {
  const [tokens, setTokens] = useState<string[]>(['']);
  return {
    token: tokens[tokens.length - 1]!,
    number: tokens.length,
    first: () => setTokens(['']),
    next: (token) => setTokens([...tokens, token]),
  };
}

/** "First page" once past it, "Next page" while the answer names one. */
export function PageButtons({ pages, nextPageToken }: { pages: Pages; nextPageToken: string }) {
  return (
    <div class="toolbar">
      {pages.number > 1 ? (
        <button type="button" class="secondary" onClick={pages.first}>
          First page
        </button>
      ) : null}
      {nextPageToken === '' ? null : (
        <button type="button" onClick={() => pages.next(nextPageToken)}>
          Next page
        </button>
      )}
    </div>
  );
}
