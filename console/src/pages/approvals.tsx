/** Placeholder until this page lands in this change series (issue 26). */
import type { PageProps } from '../app';

export function ApprovalsPage(_props: PageProps) {
  return <h1>ApprovalsPage</h1>;
}
