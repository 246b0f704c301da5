// @ts-check
/**
 * The SQL both stores share: the vehicles table's columns and the WHERE / ORDER BY of an AAP
 * inventory filter (search-request.schema.json `$defs/filters`), written once and rendered for
 * SQLite (`?`) or PostgreSQL (`$1`). Text filters compare case-insensitively against lower-cased
 * columns; `price_*` applies to the FTC out-the-door `price`; only available vehicles match.
 */

/** Term filters: AAP filter key -> column (lower-cased copy) and display column. */
export const TERM_COLUMNS = {
  make: 'make',
  model: 'model',
  trim: 'trim',
  transmission: 'transmission',
  fuel: 'fuel',
  driveline: 'driveline',
  body_type: 'body_type',
  exterior_color: 'exterior_color',
  interior_color: 'interior_color',
};

/** Facet name -> column, for the term facets (facets.schema.json). */
export const FACET_COLUMNS = {
  makes: 'make',
  models: 'model',
  trims: 'trim',
  years: 'year',
  conditions: 'condition',
  transmissions: 'transmission',
  fuels: 'fuel',
  drivelines: 'driveline',
  body_types: 'body_type',
  exterior_colors: 'exterior_color',
  interior_colors: 'interior_color',
  statuses: 'status',
};

/** AAP sort field -> column. `offered_price` orders as `list_price` (it is list plus a flat tax). */
const SORT_COLUMNS = {
  price: 'price',
  list_price: 'list_price',
  offered_price: 'list_price',
  msrp: 'msrp',
  mileage: 'mileage',
  year: 'year',
  make: 'make_lc',
  model: 'model_lc',
  stock: 'stock',
  last_verified_at: 'last_verified_at',
};

/** The table definition (both dialects understand it). */
export const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS dealer_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS dealer_vehicles (
    vehicle_id TEXT PRIMARY KEY, vin TEXT UNIQUE, stock TEXT UNIQUE, year INTEGER NOT NULL,
    make TEXT NOT NULL, make_lc TEXT NOT NULL, model TEXT NOT NULL, model_lc TEXT NOT NULL,
    trim TEXT, trim_lc TEXT, transmission TEXT, transmission_lc TEXT, fuel TEXT, fuel_lc TEXT,
    driveline TEXT, driveline_lc TEXT, body_type TEXT, body_type_lc TEXT,
    exterior_color TEXT, exterior_color_lc TEXT, interior_color TEXT, interior_color_lc TEXT,
    condition TEXT NOT NULL, status TEXT NOT NULL, available INTEGER NOT NULL,
    price DOUBLE PRECISION, list_price DOUBLE PRECISION, msrp DOUBLE PRECISION, mileage INTEGER,
    last_verified_at TEXT, search_text TEXT NOT NULL, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS dealer_vehicles_avail_price ON dealer_vehicles (available, price)`,
  `CREATE INDEX IF NOT EXISTS dealer_vehicles_avail_make ON dealer_vehicles (available, make_lc, model_lc)`,
  `CREATE TABLE IF NOT EXISTS dealer_leads (
    lead_id TEXT PRIMARY KEY, skill TEXT NOT NULL, dedupe_key TEXT, status TEXT NOT NULL,
    created_ms BIGINT NOT NULL, principal TEXT, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS dealer_leads_dedupe ON dealer_leads (dedupe_key, created_ms)`,
  `CREATE TABLE IF NOT EXISTS dealer_appointments (
    appointment_id TEXT PRIMARY KEY, status TEXT NOT NULL, appointment_type TEXT NOT NULL,
    vehicle_id TEXT, start_ms BIGINT, end_ms BIGINT, created_ms BIGINT NOT NULL, doc TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS dealer_appointments_time ON dealer_appointments (status, start_ms)`,
];

/** The row of a vehicle (column order of INSERT_VEHICLE). */
export function vehicleRow(vehicle, available) {
  const lc = (value) => (value === undefined ? null : String(value).toLowerCase());
  const search = [
    vehicle.year,
    vehicle.make,
    vehicle.model,
    vehicle.trim,
    vehicle.body_type,
    vehicle.fuel,
    vehicle.exterior_color,
    vehicle.condition,
    vehicle.description,
  ]
    .filter((x) => x !== undefined)
    .join(' ')
    .toLowerCase();
  return [
    vehicle.vehicle_id,
    vehicle.vin ?? null,
    vehicle.stock ?? null,
    vehicle.year,
    vehicle.make,
    lc(vehicle.make),
    vehicle.model,
    lc(vehicle.model),
    vehicle.trim ?? null,
    lc(vehicle.trim),
    vehicle.transmission ?? null,
    lc(vehicle.transmission),
    vehicle.fuel ?? null,
    lc(vehicle.fuel),
    vehicle.driveline ?? null,
    lc(vehicle.driveline),
    vehicle.body_type ?? null,
    lc(vehicle.body_type),
    vehicle.exterior_color ?? null,
    lc(vehicle.exterior_color),
    vehicle.interior_color ?? null,
    lc(vehicle.interior_color),
    vehicle.condition,
    vehicle.status,
    available ? 1 : 0,
    vehicle.price?.amount ?? null,
    vehicle.list_price?.amount ?? null,
    vehicle.msrp?.amount ?? null,
    vehicle.mileage ?? null,
    vehicle.last_verified_at ?? null,
    search,
    JSON.stringify(vehicle),
  ];
}

/** Column list of INSERT_VEHICLE, in vehicleRow order. */
export const VEHICLE_COLUMNS =
  'vehicle_id, vin, stock, year, make, make_lc, model, model_lc, trim, trim_lc, transmission, transmission_lc, fuel, fuel_lc, driveline, driveline_lc, body_type, body_type_lc, exterior_color, exterior_color_lc, interior_color, interior_color_lc, condition, status, available, price, list_price, msrp, mileage, last_verified_at, search_text, doc';

/**
 * A parameter collector for one dialect: `add(value)` returns its placeholder.
 * @param {'sqlite' | 'postgres'} dialect
 */
export function params(dialect) {
  /** @type {unknown[]} */
  const values = [];
  return {
    values,
    add(value) {
      values.push(value);
      return dialect === 'sqlite' ? '?' : `$${values.length}`;
    },
  };
}

/** The WHERE clause of a filter (only available vehicles). */
export function whereOf(filters = {}, p) {
  const clauses = ['available = 1'];
  for (const [key, column] of Object.entries(TERM_COLUMNS)) {
    const values = filters[key];
    if (!Array.isArray(values) || values.length === 0) continue;
    clauses.push(`${column}_lc IN (${values.map((v) => p.add(String(v).toLowerCase())).join(', ')})`);
  }
  if (Array.isArray(filters.condition) && filters.condition.length > 0) {
    clauses.push(`condition IN (${filters.condition.map((v) => p.add(v)).join(', ')})`);
  }
  if (filters.year_min !== undefined) clauses.push(`year >= ${p.add(filters.year_min)}`);
  if (filters.year_max !== undefined) clauses.push(`year <= ${p.add(filters.year_max)}`);
  if (filters.price_min !== undefined) clauses.push(`price >= ${p.add(filters.price_min)}`);
  if (filters.price_max !== undefined) clauses.push(`price <= ${p.add(filters.price_max)}`);
  if (filters.mileage_max !== undefined) clauses.push(`mileage <= ${p.add(filters.mileage_max)}`);
  if (filters.vin !== undefined) clauses.push(`vin = ${p.add(filters.vin)}`);
  if (filters.stock !== undefined) clauses.push(`stock = ${p.add(filters.stock)}`);
  if (typeof filters.query === 'string') {
    for (const word of filters.query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8)) {
      clauses.push(`search_text LIKE ${p.add(`%${word.replace(/[%_\\]/g, '')}%`)}`);
    }
  }
  return clauses.join(' AND ');
}

/** ORDER BY of a sort (default: price, lowest first), ties broken by vehicle_id for stable pages. */
export function orderOf(sort) {
  const column = SORT_COLUMNS[sort?.field ?? 'price'] ?? 'price';
  const direction = sort?.order === 'desc' ? 'DESC' : 'ASC';
  return `${column} ${direction}, vehicle_id ASC`;
}
