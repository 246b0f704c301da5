/**
 * The distinct tenants of `tasks` as a common table expression `tenants(name)`: a loose index scan,
 * one seek per tenant on an index that leads with the tenant. Statements that want one state's
 * tasks join it to tasks_by_state (tenant, state, status_ts, ...), so they read only the matching
 * index ranges rather than every task ever kept.
 */
export const TENANTS_CTE = `WITH RECURSIVE tenants(name) AS (
  SELECT MIN(tenant) FROM tasks
  UNION ALL
  SELECT (SELECT MIN(tenant) FROM tasks WHERE tenant > name) FROM tenants WHERE name IS NOT NULL
)`;
