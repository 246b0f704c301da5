// @ts-check
/**
 * The dealer's data, generated deterministically (the same seed gives the same inventory on every
 * machine): Demo Toyota's profile, and a few thousand realistic vehicles — new Toyota and Lexus
 * units, used and certified vehicles of many makes, some in transit, some sold — plus the units
 * the AAP seed's examples name (VIN 1HGCY2F57RA000001, a certified 2022 Honda Civic under
 * $30,000; stock DT-2451) and one known-sold unit for the "vehicle unavailable" answer.
 */

export const DEALER_ID = 'dealer_demo_toyota';
/** The instant the generated listings were last verified against the lot. */
const VERIFIED_AT = Date.parse('2026-04-30T06:00:00Z');

/** The dealership profile (AAP DealerInformation). */
export const DEALER_PROFILE = {
  dealer_id: DEALER_ID,
  legal_name: 'Demo Toyota of San Francisco, LLC',
  trade_name: 'Demo Toyota',
  brands: ['Toyota', 'Lexus'],
  address: {
    line1: '1450 Howard Street',
    city: 'San Francisco',
    region_code: 'CA',
    postal_code: '94103',
    country_code: 'US',
  },
  geo: { latitude: 37.7726, longitude: -122.4099 },
  phones: [
    { name: 'Sales', phone: '+14155550100' },
    { name: 'Service', phone: '+14155550101' },
    { name: 'Parts', phone: '+14155550102' },
  ],
  emails: [
    { name: 'Sales', email: 'sales@demo-toyota.example.com' },
    { name: 'Service', email: 'service@demo-toyota.example.com' },
  ],
  website: 'https://demo-toyota.example.com',
  schedule: {
    monday: { open: '09:00', close: '20:00' },
    tuesday: { open: '09:00', close: '20:00' },
    wednesday: { open: '09:00', close: '20:00' },
    thursday: { open: '09:00', close: '20:00' },
    friday: { open: '09:00', close: '20:00' },
    saturday: { open: '09:00', close: '18:00' },
    sunday: null,
  },
  timezone: 'America/Los_Angeles',
  notes: 'Closed on major holidays. Test drives need a valid driver license and proof of insurance.',
  capabilities: {
    test_drive: true,
    financing: true,
    trade_in: true,
    service: true,
    delivery: true,
    remote_delivery: false,
  },
};

/**
 * Models: [make, model, body type, base MSRP, fuel, driveline, engine, [city, highway] mpg or
 * electric range, trims].
 * @type {Array<[string, string, string, number, string, string, string, number[], string[]]>}
 */
const MODELS = [
  ['Toyota', 'Camry', 'sedan', 28400, 'gas', 'fwd', '2.5L I4', [28, 39], ['LE', 'SE', 'XLE', 'XSE']],
  [
    'Toyota',
    'Camry Hybrid',
    'sedan',
    30500,
    'hybrid',
    'fwd',
    '2.5L I4 Hybrid',
    [51, 53],
    ['LE', 'SE', 'XLE'],
  ],
  ['Toyota', 'Corolla', 'sedan', 22500, 'gas', 'fwd', '2.0L I4', [32, 41], ['LE', 'SE', 'XSE']],
  [
    'Toyota',
    'RAV4',
    'suv',
    29800,
    'gas',
    'awd',
    '2.5L I4',
    [27, 34],
    ['LE', 'XLE', 'XLE Premium', 'Adventure', 'Limited'],
  ],
  [
    'Toyota',
    'RAV4 Hybrid',
    'suv',
    33000,
    'hybrid',
    'awd',
    '2.5L I4 Hybrid',
    [41, 38],
    ['LE', 'XLE', 'SE', 'XSE', 'Limited'],
  ],
  [
    'Toyota',
    'Highlander',
    'suv',
    39500,
    'gas',
    'awd',
    '2.4L Turbo I4',
    [22, 29],
    ['LE', 'XLE', 'Limited', 'Platinum'],
  ],
  [
    'Toyota',
    'Tacoma',
    'truck',
    32000,
    'gas',
    '4wd',
    '2.4L Turbo I4',
    [20, 24],
    ['SR', 'SR5', 'TRD Sport', 'TRD Off-Road'],
  ],
  [
    'Toyota',
    'Tundra',
    'truck',
    41000,
    'gas',
    '4wd',
    '3.4L Twin-Turbo V6',
    [18, 23],
    ['SR5', 'Limited', 'Platinum'],
  ],
  [
    'Toyota',
    'Prius',
    'hatchback',
    28500,
    'hybrid',
    'fwd',
    '2.0L I4 Hybrid',
    [57, 56],
    ['LE', 'XLE', 'Limited'],
  ],
  [
    'Toyota',
    'Sienna',
    'minivan',
    39000,
    'hybrid',
    'fwd',
    '2.5L I4 Hybrid',
    [36, 36],
    ['LE', 'XLE', 'Platinum'],
  ],
  [
    'Toyota',
    '4Runner',
    'suv',
    41000,
    'gas',
    '4wd',
    '2.4L Turbo I4',
    [19, 22],
    ['SR5', 'TRD Off-Road', 'Limited'],
  ],
  ['Toyota', 'bZ4X', 'suv', 43000, 'bev', 'fwd', 'Electric motor', [252], ['XLE', 'Limited']],
  [
    'Toyota',
    'Grand Highlander',
    'suv',
    44000,
    'gas',
    'awd',
    '2.4L Turbo I4',
    [21, 28],
    ['XLE', 'Limited', 'Platinum'],
  ],
  [
    'Lexus',
    'RX',
    'suv',
    50000,
    'gas',
    'awd',
    '2.4L Turbo I4',
    [22, 29],
    ['350', '350 Premium', '350 F Sport'],
  ],
  ['Lexus', 'ES', 'sedan', 43000, 'hybrid', 'fwd', '2.5L I4 Hybrid', [43, 44], ['300h', '300h Luxury']],
  ['Lexus', 'NX', 'suv', 42000, 'gas', 'awd', '2.5L I4', [25, 32], ['250', '350', '350h']],
  ['Lexus', 'IS', 'sedan', 41000, 'gas', 'rwd', '2.0L Turbo I4', [21, 31], ['300', '350 F Sport']],
  ['Honda', 'Civic', 'sedan', 24500, 'gas', 'fwd', '2.0L I4', [31, 40], ['LX', 'Sport', 'EX', 'Touring']],
  [
    'Honda',
    'Accord',
    'sedan',
    28500,
    'gas',
    'fwd',
    '1.5L Turbo I4',
    [29, 37],
    ['LX', 'EX', 'Sport', 'Touring'],
  ],
  ['Honda', 'CR-V', 'suv', 31000, 'gas', 'awd', '1.5L Turbo I4', [28, 34], ['LX', 'EX', 'EX-L', 'Touring']],
  ['Honda', 'Pilot', 'suv', 40000, 'gas', 'awd', '3.5L V6', [19, 25], ['Sport', 'EX-L', 'Touring', 'Elite']],
  ['Honda', 'HR-V', 'suv', 25000, 'gas', 'fwd', '2.0L I4', [26, 32], ['LX', 'Sport', 'EX-L']],
  ['Ford', 'F-150', 'truck', 39000, 'gas', '4wd', '2.7L EcoBoost V6', [19, 25], ['XL', 'XLT', 'Lariat']],
  ['Ford', 'Escape', 'suv', 29000, 'gas', 'fwd', '1.5L EcoBoost I3', [27, 34], ['S', 'SE', 'Titanium']],
  ['Ford', 'Explorer', 'suv', 38000, 'gas', 'rwd', '2.3L EcoBoost I4', [21, 28], ['XLT', 'Limited', 'ST']],
  ['Ford', 'Mustang', 'coupe', 31000, 'gas', 'rwd', '2.3L EcoBoost I4', [21, 32], ['EcoBoost', 'GT']],
  ['Chevrolet', 'Silverado 1500', 'truck', 38000, 'gas', '4wd', '5.3L V8', [16, 21], ['WT', 'LT', 'RST']],
  ['Chevrolet', 'Equinox', 'suv', 27000, 'gas', 'fwd', '1.5L Turbo I4', [26, 31], ['LS', 'LT', 'Premier']],
  ['Chevrolet', 'Malibu', 'sedan', 25000, 'gas', 'fwd', '1.5L Turbo I4', [27, 35], ['LS', 'LT']],
  ['Chevrolet', 'Bolt EV', 'hatchback', 27000, 'bev', 'fwd', 'Electric motor', [259], ['1LT', '2LT']],
  ['Nissan', 'Altima', 'sedan', 26000, 'gas', 'fwd', '2.5L I4', [27, 39], ['S', 'SV', 'SR']],
  ['Nissan', 'Rogue', 'suv', 29000, 'gas', 'awd', '1.5L Turbo I3', [30, 37], ['S', 'SV', 'SL']],
  ['Nissan', 'Sentra', 'sedan', 21000, 'gas', 'fwd', '2.0L I4', [30, 40], ['S', 'SV', 'SR']],
  ['Hyundai', 'Elantra', 'sedan', 22000, 'gas', 'fwd', '2.0L I4', [33, 42], ['SE', 'SEL', 'Limited']],
  ['Hyundai', 'Tucson', 'suv', 28000, 'gas', 'awd', '2.5L I4', [25, 32], ['SE', 'SEL', 'Limited']],
  ['Hyundai', 'Ioniq 5', 'suv', 42000, 'bev', 'awd', 'Dual electric motors', [260], ['SE', 'SEL', 'Limited']],
  ['Subaru', 'Outback', 'wagon', 30000, 'gas', 'awd', '2.5L H4', [26, 33], ['Base', 'Premium', 'Limited']],
  ['Subaru', 'Forester', 'suv', 28000, 'gas', 'awd', '2.5L H4', [26, 33], ['Base', 'Premium', 'Sport']],
  ['Tesla', 'Model 3', 'sedan', 40000, 'bev', 'rwd', 'Electric motor', [272], ['RWD', 'Long Range']],
  [
    'Tesla',
    'Model Y',
    'suv',
    45000,
    'bev',
    'awd',
    'Dual electric motors',
    [310],
    ['Long Range', 'Performance'],
  ],
  ['BMW', '3 Series', 'sedan', 45000, 'gas', 'rwd', '2.0L Turbo I4', [26, 36], ['330i', 'M340i']],
  ['BMW', 'X3', 'suv', 48000, 'gas', 'awd', '2.0L Turbo I4', [23, 29], ['sDrive30i', 'xDrive30i']],
  [
    'Mazda',
    'CX-5',
    'suv',
    29000,
    'gas',
    'awd',
    '2.5L I4',
    [24, 30],
    ['S', 'Select', 'Preferred', 'Carbon Edition'],
  ],
  ['Mazda', 'Mazda3', 'hatchback', 24000, 'gas', 'fwd', '2.5L I4', [27, 35], ['S', 'Select', 'Premium']],
  ['Kia', 'Sorento', 'suv', 32000, 'gas', 'awd', '2.5L I4', [24, 29], ['LX', 'S', 'EX']],
  ['Kia', 'Telluride', 'suv', 37000, 'gas', 'awd', '3.8L V6', [20, 26], ['LX', 'S', 'EX', 'SX']],
  ['Jeep', 'Wrangler', 'suv', 34000, 'gas', '4wd', '3.6L V6', [17, 25], ['Sport', 'Sahara', 'Rubicon']],
  [
    'Jeep',
    'Grand Cherokee',
    'suv',
    40000,
    'gas',
    '4wd',
    '3.6L V6',
    [19, 26],
    ['Laredo', 'Limited', 'Overland'],
  ],
  ['Volkswagen', 'Jetta', 'sedan', 22000, 'gas', 'fwd', '1.5L Turbo I4', [29, 40], ['S', 'SE', 'SEL']],
  ['Volkswagen', 'Tiguan', 'suv', 29000, 'gas', 'awd', '2.0L Turbo I4', [23, 30], ['S', 'SE', 'SEL']],
];

/** World manufacturer identifiers by make (the first three VIN characters). */
const WMI = {
  Toyota: ['4T1', 'JTD', '5TD', '2T3'],
  Lexus: ['JTH', '2T2', 'JTJ'],
  Honda: ['1HG', '2HK', '5J6', '19X'],
  Ford: ['1FT', '1FM', '1FA'],
  Chevrolet: ['1GC', '3GN', '1G1'],
  Nissan: ['1N4', '5N1', '3N1'],
  Hyundai: ['5NP', 'KM8'],
  Subaru: ['4S4', 'JF2'],
  Tesla: ['5YJ', '7SA'],
  BMW: ['WBA', '5UX'],
  Mazda: ['JM1', 'JM3'],
  Kia: ['5XY', 'KND'],
  Jeep: ['1C4'],
  Volkswagen: ['3VW', '3VV'],
};

const EXTERIOR = [
  'Super White',
  'Midnight Black Metallic',
  'Celestial Silver Metallic',
  'Magnetic Gray Metallic',
  'Blueprint',
  'Supersonic Red',
  'Wind Chill Pearl',
  'Lunar Rock',
  'Cavalry Blue',
  'Ice Cap',
];
const INTERIOR = ['Black', 'Gray', 'Ash', 'Black Leather', 'Macadamia', 'Boulder'];
const TRANSMISSIONS = { gas: 'automatic', hybrid: 'cvt', bev: 'single-speed' };
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const YEAR_CODES = {
  2015: 'F',
  2016: 'G',
  2017: 'H',
  2018: 'J',
  2019: 'K',
  2020: 'L',
  2021: 'M',
  2022: 'N',
  2023: 'P',
  2024: 'R',
  2025: 'S',
  2026: 'T',
};

/** A small, fast, seedable PRNG (mulberry32): the same seed, the same inventory. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The ISO 3779 check digit (position 9) of a 17-character VIN. */
function vinCheckDigit(vin) {
  const values = {
    A: 1,
    B: 2,
    C: 3,
    D: 4,
    E: 5,
    F: 6,
    G: 7,
    H: 8,
    J: 1,
    K: 2,
    L: 3,
    M: 4,
    N: 5,
    P: 7,
    R: 9,
    S: 2,
    T: 3,
    U: 4,
    V: 5,
    W: 6,
    X: 7,
    Y: 8,
    Z: 9,
  };
  const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i];
    sum += (/\d/.test(c) ? Number(c) : values[c]) * weights[i];
  }
  const rest = sum % 11;
  return rest === 10 ? 'X' : String(rest);
}

const money = (amount) => ({ amount, currency: 'USD' });
/** Dealer documentation and filing fees, part of the FTC out-the-door `price`. */
export const DEALER_FEES = 85 + 29;

/**
 * One vehicle as the store keeps it: the AAP Vehicle (open object) plus the detail fields
 * inventory.vehicle shows.
 */
function vehicle(fields) {
  const { stock, make, model, year, trim, condition } = fields;
  const slug = `${year}-${make}-${model}-${trim}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const lower = stock.toLowerCase();
  const v = {
    dealer_id: DEALER_ID,
    vehicle_id: `veh_${lower.replace(/-/g, '_')}`,
    vin: fields.vin,
    stock,
    year,
    make,
    model,
    trim,
    body_type: fields.body_type,
    transmission: fields.transmission,
    exterior_color: fields.exterior_color,
    interior_color: fields.interior_color,
    condition,
    description: `${condition === 'new' ? 'New' : condition === 'certified' ? 'Certified pre-owned' : 'Used'} ${year} ${make} ${model} ${trim} in ${fields.exterior_color}.`,
    driveline: fields.driveline,
    engine: fields.engine,
    fuel: fields.fuel,
    ...(fields.fuel === 'bev'
      ? { electric_range_mi: fields.range }
      : { mpg: { city: fields.mpg[0], highway: fields.mpg[1] } }),
    msrp: money(fields.msrp),
    list_price: money(fields.list),
    price: money(fields.list + DEALER_FEES),
    mileage: fields.mileage,
    photos: [1, 2, 3].map((n) => `https://cdn.demo-toyota.example.com/inventory/${lower}/0${n}.jpg`),
    vdp_url: `https://demo-toyota.example.com/inventory/${condition}/${slug}-${stock}`,
    status: fields.status,
    last_verified_at: new Date(fields.verifiedAt).toISOString().replace('.000Z', 'Z'),
    ...(fields.notes === undefined ? {} : { notes: fields.notes }),
    equipment: fields.equipment,
    title_status: condition === 'new' ? 'new' : 'clean',
    ...(condition === 'new' ? {} : { owners: fields.owners }),
    ...(condition === 'certified' ? { certification: `${make} Certified Pre-Owned` } : {}),
  };
  return v;
}

const EQUIPMENT = [
  'Apple CarPlay and Android Auto',
  'Adaptive cruise control',
  'Blind spot monitor',
  'Heated front seats',
  'Power moonroof',
  'Wireless phone charger',
  'Lane keeping assist',
  'Power liftgate',
  'Leather-trimmed seats',
  'Premium audio',
];

/** The vehicles the AAP seed's examples name, with fixed facts. */
function pinned() {
  const civic = vehicle({
    stock: 'DT-2611',
    vin: '1HGCY2F57RA000001',
    make: 'Honda',
    model: 'Civic',
    year: 2022,
    trim: 'EX',
    body_type: 'sedan',
    transmission: 'cvt',
    exterior_color: 'Platinum White Pearl',
    interior_color: 'Black',
    condition: 'certified',
    driveline: 'fwd',
    engine: '1.5L Turbo I4',
    fuel: 'gas',
    mpg: [33, 42],
    msrp: 26950,
    list: 24995,
    mileage: 18420,
    status: 'In Stock',
    verifiedAt: VERIFIED_AT + 9_720_000,
    owners: 1,
    notes: 'One owner, complete service history, Honda certified with extended powertrain warranty.',
    equipment: EQUIPMENT.slice(0, 7),
  });
  const crv = vehicle({
    stock: 'DT-2451',
    vin: '2HKRW2H89PH123456',
    make: 'Honda',
    model: 'CR-V',
    year: 2023,
    trim: 'EX',
    body_type: 'suv',
    transmission: 'automatic',
    exterior_color: 'Meteorite Gray Metallic',
    interior_color: 'Black',
    condition: 'used',
    driveline: 'awd',
    engine: '1.5L Turbo I4',
    fuel: 'gas',
    mpg: [28, 34],
    msrp: 32450,
    list: 27995,
    mileage: 28450,
    status: 'In Stock',
    verifiedAt: VERIFIED_AT + 4_500_000,
    owners: 1,
    equipment: EQUIPMENT.slice(0, 5),
  });
  const sold = vehicle({
    stock: 'DT-1999',
    vin: '4T1G11AK5NU000013',
    make: 'Toyota',
    model: 'Camry',
    year: 2022,
    trim: 'SE',
    body_type: 'sedan',
    transmission: 'automatic',
    exterior_color: 'Supersonic Red',
    interior_color: 'Black',
    condition: 'used',
    driveline: 'fwd',
    engine: '2.5L I4',
    fuel: 'gas',
    mpg: [28, 39],
    msrp: 27500,
    list: 23995,
    mileage: 31200,
    status: 'Sold',
    verifiedAt: VERIFIED_AT,
    owners: 2,
    equipment: EQUIPMENT.slice(0, 4),
  });
  return [civic, crv, sold];
}

/** The whole generated inventory: `count` vehicles (the pinned ones included), same every time. */
export function generateInventory(count = 3000) {
  const next = random(20260430);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const vehicles = pinned();
  const seen = new Set(vehicles.map((v) => v.vin));
  for (let i = 0; vehicles.length < count; i++) {
    const [make, model, body, base, fuel, driveline, engine, economy, trims] = pick(MODELS);
    const dealerBrand = make === 'Toyota' || make === 'Lexus';
    const roll = next();
    const condition = dealerBrand
      ? roll < 0.45
        ? 'new'
        : roll < 0.65
          ? 'certified'
          : 'used'
      : roll < 0.8
        ? 'used'
        : 'certified';
    const year =
      condition === 'new'
        ? next() < 0.7
          ? 2026
          : 2025
        : 2015 +
          Math.floor(next() * (condition === 'certified' ? 5 : 9)) +
          (condition === 'certified' ? 4 : 0);
    const age = 2026 - year;
    const mileage =
      condition === 'new'
        ? 3 + Math.floor(next() * 40)
        : Math.max(900, Math.round(age * 11_500 * (0.6 + next() * 0.8)));
    const trimIndex = Math.floor(next() * trims.length);
    const msrp = Math.round((base + trimIndex * 2400 + (year - 2015) * 350) / 50) * 50;
    const depreciation =
      condition === 'new' ? 1 - next() * 0.04 : Math.max(0.35, 0.92 - age * 0.05 - mileage / 1_500_000);
    const list = Math.round((msrp * depreciation) / 100) * 100 - 5;
    const statusRoll = next();
    const status =
      statusRoll < 0.08 ? 'Sold' : condition === 'new' && statusRoll < 0.16 ? 'In Transit' : 'In Stock';
    const wmi = pick(WMI[make]);
    let body6 = '';
    for (let c = 0; c < 5; c++) body6 += VIN_CHARS[Math.floor(next() * VIN_CHARS.length)];
    const serial = String(100000 + i).slice(-6);
    const draft = `${wmi}${body6}0${YEAR_CODES[year]}${pick(['A', 'C', 'U', 'K', '0', '1'])}${serial}`;
    const vin = `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
    if (seen.has(vin)) continue;
    seen.add(vin);
    vehicles.push(
      vehicle({
        stock: `DT-${String(3000 + i).padStart(4, '0')}`,
        vin,
        make,
        model,
        year,
        trim: trims[trimIndex],
        body_type: body,
        transmission: TRANSMISSIONS[fuel] ?? 'automatic',
        exterior_color: pick(EXTERIOR),
        interior_color: pick(INTERIOR),
        condition,
        driveline,
        engine,
        fuel,
        mpg: economy,
        range: economy[0],
        msrp,
        list,
        mileage,
        status,
        verifiedAt: VERIFIED_AT - Math.floor(next() * 72) * 3_600_000,
        owners: 1 + Math.floor(next() * 3),
        equipment: EQUIPMENT.filter(() => next() < 0.5),
      }),
    );
  }
  return vehicles;
}

/** Available means a buyer can still get it: in stock or arriving. Sold units never are. */
export function isAvailable(status) {
  return status === 'In Stock' || status === 'In Transit';
}
