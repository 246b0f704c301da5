// @ts-check
/** The dealer store on SQLite (better-sqlite3, WAL): one file beside Concord's task store. */
import Database from 'better-sqlite3';
import {
  FACET_COLUMNS,
  SCHEMA_SQL,
  VEHICLE_COLUMNS,
  orderOf,
  params,
  vehicleRow,
  whereOf,
} from './vehicle-query.mjs';
import { rangeFacet, termFacet } from './dealer-store.mjs';
import { isAvailable } from './inventory-data.mjs';

/**
 * @param {string} path
 * @returns {import('./dealer-store.mjs').DealerStore}
 */
export function openSqliteDealerStore(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const sql of SCHEMA_SQL) db.exec(sql);
  const placeholders = VEHICLE_COLUMNS.split(',')
    .map(() => '?')
    .join(', ');
  const insertVehicle = db.prepare(
    `INSERT INTO dealer_vehicles (${VEHICLE_COLUMNS}) VALUES (${placeholders})`,
  );
  const cache = new Map();
  /** Prepared statements by SQL text: filters repeat, so their statements are reused. */
  const prepared = (sql) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      if (cache.size < 500) cache.set(sql, statement);
    }
    return statement;
  };

  const insertLead = db.prepare(
    'INSERT INTO dealer_leads (lead_id, skill, dedupe_key, status, created_ms, principal, doc) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const findLead = db.prepare(
    'SELECT lead_id FROM dealer_leads WHERE dedupe_key = ? AND created_ms >= ? ORDER BY created_ms LIMIT 1',
  );
  const insertAppointment = db.prepare(
    'INSERT INTO dealer_appointments (appointment_id, status, appointment_type, vehicle_id, start_ms, end_ms, created_ms, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const overlapping = db.prepare(
    "SELECT start_ms, end_ms, vehicle_id FROM dealer_appointments WHERE status = 'confirmed' AND start_ms < ? AND end_ms > ?",
  );
  const appointmentRow = (r) => [
    r.appointment_id,
    r.status,
    r.appointment_type,
    r.vehicle_id ?? null,
    r.start_ms ?? null,
    r.end_ms ?? null,
    r.created_ms,
    JSON.stringify(r.doc),
  ];

  const addLead = db.transaction((lead, sinceMs) => {
    if (lead.dedupe_key !== undefined) {
      const existing = findLead.get(lead.dedupe_key, sinceMs);
      if (existing !== undefined) return { status: 'duplicate', lead_id: existing.lead_id };
    }
    insertLead.run(
      lead.lead_id,
      lead.skill,
      lead.dedupe_key ?? null,
      lead.status,
      lead.created_ms,
      lead.principal ?? null,
      JSON.stringify(lead.doc),
    );
    return { status: 'received', lead_id: lead.lead_id };
  });
  const book = db.transaction((slots, record, capacity) => {
    for (const slot of slots) {
      const taken = overlapping.all(slot.end_ms, slot.start_ms);
      if (taken.length >= capacity) continue;
      if (record.vehicle_id !== undefined && taken.some((t) => t.vehicle_id === record.vehicle_id)) continue;
      insertAppointment.run(...appointmentRow({ ...record, start_ms: slot.start_ms, end_ms: slot.end_ms }));
      return slot;
    }
    return undefined;
  });

  return {
    async seed(profile, vehicles, version) {
      const done = db.prepare("SELECT value FROM dealer_meta WHERE key = 'seed'").get();
      if (done !== undefined) return false;
      db.transaction(() => {
        db.prepare("INSERT INTO dealer_meta (key, value) VALUES ('profile', ?)").run(JSON.stringify(profile));
        for (const vehicle of vehicles)
          insertVehicle.run(...vehicleRow(vehicle, isAvailable(vehicle.status)));
        db.prepare("INSERT INTO dealer_meta (key, value) VALUES ('seed', ?)").run(version);
      })();
      return true;
    },
    async profile() {
      const row = db.prepare("SELECT value FROM dealer_meta WHERE key = 'profile'").get();
      return JSON.parse(row.value);
    },
    async searchVehicles({ filters, sort, skip, limit }) {
      const p = params('sqlite');
      const where = whereOf(filters, p);
      const total = prepared(`SELECT COUNT(*) AS n FROM dealer_vehicles WHERE ${where}`).get(...p.values).n;
      const rows = prepared(
        `SELECT doc FROM dealer_vehicles WHERE ${where} ORDER BY ${orderOf(sort)} LIMIT ? OFFSET ?`,
      ).all(...p.values, limit, skip);
      return { total, vehicles: rows.map((row) => JSON.parse(row.doc)) };
    },
    async facets(filters) {
      const p = params('sqlite');
      const where = whereOf(filters, p);
      const out = {};
      for (const [name, column] of Object.entries(FACET_COLUMNS)) {
        out[name] = termFacet(
          prepared(
            `SELECT ${column} AS value, COUNT(*) AS count FROM dealer_vehicles WHERE ${where} GROUP BY ${column}`,
          ).all(...p.values),
        );
      }
      const r = prepared(
        `SELECT MIN(price) AS pmin, MAX(price) AS pmax, MIN(mileage) AS mmin, MAX(mileage) AS mmax, MIN(year) AS ymin, MAX(year) AS ymax FROM dealer_vehicles WHERE ${where}`,
      ).get(...p.values);
      for (const [name, min, max] of [
        ['price_range', r.pmin, r.pmax],
        ['mileage_range', r.mmin, r.mmax],
        ['year_range', r.ymin, r.ymax],
      ]) {
        const range = rangeFacet(min, max);
        if (range !== undefined) out[name] = range;
      }
      return out;
    },
    async findVehicle(ref) {
      const [column, value] =
        ref.vin !== undefined
          ? ['vin', ref.vin]
          : ref.stock !== undefined
            ? ['stock', ref.stock]
            : ['vehicle_id', ref.vehicle_id];
      const row = prepared(`SELECT doc, available FROM dealer_vehicles WHERE ${column} = ?`).get(value);
      return row === undefined ? undefined : { vehicle: JSON.parse(row.doc), available: row.available === 1 };
    },
    async addLead(lead, sinceMs) {
      return addLead(lead, sinceMs);
    },
    async bookFirstFree(slots, record, capacity) {
      return book(slots, record, capacity);
    },
    async addAppointment(record) {
      insertAppointment.run(...appointmentRow(record));
    },
    async confirmedBetween(startMs, endMs) {
      return overlapping.all(endMs, startMs);
    },
    async records() {
      const leads = db
        .prepare('SELECT * FROM dealer_leads ORDER BY created_ms, lead_id')
        .all()
        .map((r) => ({ ...r, doc: JSON.parse(r.doc) }));
      const appointments = db
        .prepare('SELECT * FROM dealer_appointments ORDER BY created_ms, appointment_id')
        .all()
        .map((r) => ({ ...r, doc: JSON.parse(r.doc) }));
      return { leads, appointments };
    },
    async close() {
      db.close();
    },
  };
}
