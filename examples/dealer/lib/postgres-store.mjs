// @ts-check
/**
 * The dealer store on PostgreSQL (`pg`), for dealers that run several instances against one
 * database. Bookings and duplicate checks take a table lock inside a transaction, so two
 * instances cannot confirm the same slot or store the same lead twice.
 */
import pg from 'pg';
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
 * @param {string} url
 * @returns {Promise<import('./dealer-store.mjs').DealerStore>}
 */
export async function openPostgresDealerStore(url) {
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // BIGINT columns come back as strings by default; the times fit in a double.
  const num = (value) => (value === null || value === undefined ? value : Number(value));
  await pool.query('SELECT pg_advisory_lock(4242)');
  try {
    for (const sql of SCHEMA_SQL) await pool.query(sql);
  } finally {
    await pool.query('SELECT pg_advisory_unlock(4242)');
  }
  /** Runs `work` in a transaction on one client. */
  const transaction = async (work) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
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
  const INSERT_APPOINTMENT =
    'INSERT INTO dealer_appointments (appointment_id, status, appointment_type, vehicle_id, start_ms, end_ms, created_ms, doc) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)';
  const OVERLAPPING =
    "SELECT start_ms, end_ms, vehicle_id FROM dealer_appointments WHERE status = 'confirmed' AND start_ms < $1 AND end_ms > $2";

  return {
    async seed(profile, vehicles, version) {
      return transaction(async (client) => {
        await client.query('LOCK TABLE dealer_meta IN EXCLUSIVE MODE');
        const done = await client.query("SELECT value FROM dealer_meta WHERE key = 'seed'");
        if (done.rows.length > 0) return false;
        await client.query("INSERT INTO dealer_meta (key, value) VALUES ('profile', $1)", [
          JSON.stringify(profile),
        ]);
        const columns = VEHICLE_COLUMNS.split(',').length;
        for (let i = 0; i < vehicles.length; i += 200) {
          const batch = vehicles.slice(i, i + 200);
          const values = [];
          const tuples = batch.map((vehicle, row) => {
            values.push(...vehicleRow(vehicle, isAvailable(vehicle.status)));
            return `(${Array.from({ length: columns }, (_, c) => `$${row * columns + c + 1}`).join(', ')})`;
          });
          await client.query(
            `INSERT INTO dealer_vehicles (${VEHICLE_COLUMNS}) VALUES ${tuples.join(', ')}`,
            values,
          );
        }
        await client.query("INSERT INTO dealer_meta (key, value) VALUES ('seed', $1)", [version]);
        return true;
      });
    },
    async profile() {
      const { rows } = await pool.query("SELECT value FROM dealer_meta WHERE key = 'profile'");
      return JSON.parse(rows[0].value);
    },
    async searchVehicles({ filters, sort, skip, limit }) {
      const p = params('postgres');
      const where = whereOf(filters, p);
      const count = await pool.query(`SELECT COUNT(*) AS n FROM dealer_vehicles WHERE ${where}`, p.values);
      const page = await pool.query(
        `SELECT doc FROM dealer_vehicles WHERE ${where} ORDER BY ${orderOf(sort)} LIMIT ${p.add(limit)} OFFSET ${p.add(skip)}`,
        p.values,
      );
      return { total: Number(count.rows[0].n), vehicles: page.rows.map((row) => JSON.parse(row.doc)) };
    },
    async facets(filters) {
      const p = params('postgres');
      const where = whereOf(filters, p);
      const out = {};
      for (const [name, column] of Object.entries(FACET_COLUMNS)) {
        const { rows } = await pool.query(
          `SELECT ${column} AS value, COUNT(*) AS count FROM dealer_vehicles WHERE ${where} GROUP BY ${column}`,
          p.values,
        );
        out[name] = termFacet(rows);
      }
      const { rows } = await pool.query(
        `SELECT MIN(price) AS pmin, MAX(price) AS pmax, MIN(mileage) AS mmin, MAX(mileage) AS mmax, MIN(year) AS ymin, MAX(year) AS ymax FROM dealer_vehicles WHERE ${where}`,
        p.values,
      );
      const r = rows[0];
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
      const { rows } = await pool.query(`SELECT doc, available FROM dealer_vehicles WHERE ${column} = $1`, [
        value,
      ]);
      return rows.length === 0
        ? undefined
        : { vehicle: JSON.parse(rows[0].doc), available: Number(rows[0].available) === 1 };
    },
    async addLead(lead, sinceMs) {
      return transaction(async (client) => {
        await client.query('LOCK TABLE dealer_leads IN SHARE ROW EXCLUSIVE MODE');
        if (lead.dedupe_key !== undefined) {
          const { rows } = await client.query(
            'SELECT lead_id FROM dealer_leads WHERE dedupe_key = $1 AND created_ms >= $2 ORDER BY created_ms LIMIT 1',
            [lead.dedupe_key, sinceMs],
          );
          if (rows.length > 0) return { status: 'duplicate', lead_id: rows[0].lead_id };
        }
        await client.query(
          'INSERT INTO dealer_leads (lead_id, skill, dedupe_key, status, created_ms, principal, doc) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [
            lead.lead_id,
            lead.skill,
            lead.dedupe_key ?? null,
            lead.status,
            lead.created_ms,
            lead.principal ?? null,
            JSON.stringify(lead.doc),
          ],
        );
        return { status: 'received', lead_id: lead.lead_id };
      });
    },
    async bookFirstFree(slots, record, capacity) {
      return transaction(async (client) => {
        await client.query('LOCK TABLE dealer_appointments IN SHARE ROW EXCLUSIVE MODE');
        for (const slot of slots) {
          const { rows } = await client.query(OVERLAPPING, [slot.end_ms, slot.start_ms]);
          if (rows.length >= capacity) continue;
          if (record.vehicle_id !== undefined && rows.some((t) => t.vehicle_id === record.vehicle_id))
            continue;
          await client.query(
            INSERT_APPOINTMENT,
            appointmentRow({ ...record, start_ms: slot.start_ms, end_ms: slot.end_ms }),
          );
          return slot;
        }
        return undefined;
      });
    },
    async addAppointment(record) {
      await pool.query(INSERT_APPOINTMENT, appointmentRow(record));
    },
    async confirmedBetween(startMs, endMs) {
      const { rows } = await pool.query(OVERLAPPING, [endMs, startMs]);
      return rows.map((r) => ({
        start_ms: num(r.start_ms),
        end_ms: num(r.end_ms),
        vehicle_id: r.vehicle_id,
      }));
    },
    async records() {
      const leads = await pool.query('SELECT * FROM dealer_leads ORDER BY created_ms, lead_id');
      const appointments = await pool.query(
        'SELECT * FROM dealer_appointments ORDER BY created_ms, appointment_id',
      );
      return {
        leads: leads.rows.map((r) => ({ ...r, created_ms: num(r.created_ms), doc: JSON.parse(r.doc) })),
        appointments: appointments.rows.map((r) => ({
          ...r,
          created_ms: num(r.created_ms),
          start_ms: num(r.start_ms),
          end_ms: num(r.end_ms),
          doc: JSON.parse(r.doc),
        })),
      };
    },
    async close() {
      await pool.end();
    },
  };
}
