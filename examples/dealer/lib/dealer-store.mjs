// @ts-check
/**
 * The dealer's data port: the profile, the inventory (search, facets, lookup), leads (with
 * duplicate detection inside a window) and appointments (booked atomically against the slots
 * already confirmed). Two implementations share one test suite (test/dealer/dealer-store.test.ts):
 * SQLite, in the data directory next to Concord's task store (the default), and PostgreSQL
 * (`DEALER_DATABASE_URL=postgres://…`).
 *
 * @typedef {{ vin?: string, stock?: string, vehicle_id?: string }} VehicleRef
 * @typedef {{ vehicle: Record<string, any>, available: boolean }} FoundVehicle
 * @typedef {{ lead_id: string, skill: string, dedupe_key?: string, status: string, created_ms: number, principal?: string, doc: unknown }} LeadRecord
 * @typedef {{ appointment_id: string, status: string, appointment_type: string, vehicle_id?: string, start_ms?: number, end_ms?: number, created_ms: number, doc: unknown }} AppointmentRecord
 * @typedef {{ start_ms: number, end_ms: number }} Slot
 *
 * @typedef {object} DealerStore
 * @property {(profile: Record<string, unknown>, vehicles: Record<string, any>[], version: string) => Promise<boolean>} seed
 *   Loads the profile and inventory once (true when it did; a seeded store keeps its data).
 * @property {() => Promise<Record<string, unknown>>} profile
 * @property {(query: { filters?: Record<string, any>, sort?: { field: string, order: string }, skip: number, limit: number }) => Promise<{ total: number, vehicles: Record<string, any>[] }>} searchVehicles
 * @property {(filters?: Record<string, any>) => Promise<Record<string, unknown>>} facets
 * @property {(ref: VehicleRef) => Promise<FoundVehicle | undefined>} findVehicle
 * @property {(lead: LeadRecord, sinceMs: number) => Promise<{ status: 'received' | 'duplicate', lead_id: string }>} addLead
 *   Stores the lead unless one with the same dedupe key was stored since `sinceMs`.
 * @property {(slots: Slot[], record: AppointmentRecord, capacity: number) => Promise<Slot | undefined>} bookFirstFree
 *   Books the first slot with room (fewer than `capacity` confirmed overlaps, and none for the same
 *   vehicle) as `record` (status confirmed); undefined when none has room (nothing stored).
 * @property {(record: AppointmentRecord) => Promise<void>} addAppointment
 * @property {(startMs: number, endMs: number) => Promise<{ start_ms: number, end_ms: number, vehicle_id: string | null }[]>} confirmedBetween
 * @property {() => Promise<{ leads: LeadRecord[], appointments: AppointmentRecord[] }>} records
 * @property {() => Promise<void>} close
 */

/**
 * Opens the store the configuration asks for.
 * @param {{ databaseUrl?: string, sqlitePath?: string }} options `sqlitePath` ':memory:' keeps nothing.
 * @returns {Promise<DealerStore>}
 */
export async function openDealerStore(options) {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    const { openPostgresDealerStore } = await import('./postgres-store.mjs');
    return openPostgresDealerStore(options.databaseUrl);
  }
  const { openSqliteDealerStore } = await import('./sqlite-store.mjs');
  return openSqliteDealerStore(options.sqlitePath ?? ':memory:');
}

/** Term facets as AAP wants them: `{value, count}`, most common first. */
export function termFacet(rows) {
  return rows
    .filter((row) => row.value !== null && row.value !== undefined)
    .map((row) => ({ value: row.value, count: Number(row.count) }))
    .sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)));
}

/** A range facet, or undefined when nothing matched. */
export function rangeFacet(min, max) {
  return min === null || min === undefined ? undefined : { min: Number(min), max: Number(max) };
}
