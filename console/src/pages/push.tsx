/** Placeholder until this page lands in this change series (issue 26). */
import type { PageProps } from '../app';

export function PushPage(_props: PageProps) {
  return <h1>PushPage</h1>;
}
