// @ts-check
/**
 * The dealer's seven AAP skill handlers over its data store. Each gets a schema-valid request
 * (the profile checked it, and its consent) and returns `{ data, message }`, or throws an AAP
 * refusal (`aapError`) for the business rules: unknown or sold vehicles, unavailable times.
 */
import { randomUUID } from 'node:crypto';
import { aapError } from 'concord-a2a/extensions/aap';
import { describeTime, isTimeZone, iso, nextSlots, windowSlots } from './schedule.mjs';

/** Page size when the request names none, and the most one page holds (AAP: default ≤ 50, cap 100). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** A lead equal to one stored this recently is a duplicate. */
export const DUPLICATE_WINDOW_MS = 24 * 3_600_000;
/** Confirmed appointments that may overlap (advisors on the floor). */
export const APPOINTMENT_CAPACITY = 2;

/** California-style sales tax by ZIP prefix, for `offered_price` (list price plus tax). */
function taxRate(zip) {
  if (/^94[01]/.test(zip)) return 0.08625;
  if (/^9[0-6]/.test(zip)) return 0.0725;
  return 0.06;
}

/** A vehicle as AAP shows it: the stored listing, with `offered_price` only for a given ZIP. */
function shown(vehicle, zip, detail) {
  const { equipment, title_status, owners, certification, body_type, ...base } = vehicle;
  const out = detail
    ? {
        ...base,
        body_type,
        equipment,
        title_status,
        ...(owners === undefined ? {} : { owners }),
        ...(certification === undefined ? {} : { certification }),
      }
    : { ...base, body_type };
  if (zip !== undefined) {
    out.zip_code = zip;
    out.offered_price = {
      amount: Math.round(vehicle.list_price.amount * (1 + taxRate(zip))),
      currency: 'USD',
    };
  }
  return out;
}

const label = (v) => `${v.year} ${v.make} ${v.model}${v.trim ? ` ${v.trim}` : ''}`;

/**
 * The handlers.
 * @param {import('./dealer-store.mjs').DealerStore} store
 */
export function dealerSkills(store) {
  /** Resolves vehicle references; unknown -> VEHICLE_NOT_FOUND, sold -> VEHICLE_UNAVAILABLE. */
  async function resolveVehicles(refs, at) {
    const found = [];
    for (const [index, ref] of (refs ?? []).entries()) {
      if (ref.vin === undefined && ref.stock === undefined && ref.vehicle_id === undefined) continue; // year+make+model interest
      const hit = await store.findVehicle(ref);
      const which = ref.vin ?? ref.stock ?? ref.vehicle_id;
      if (hit === undefined) {
        throw aapError('VEHICLE_NOT_FOUND', `No listing matches ${which}`, {
          details: { instancePath: `/vehicles/${index}`, reference: ref },
          now: at,
        });
      }
      if (!hit.available) {
        throw aapError(
          'VEHICLE_UNAVAILABLE',
          `${label(hit.vehicle)} (${which}) is no longer available: ${hit.vehicle.status}`,
          {
            details: {
              instancePath: `/vehicles/${index}`,
              vehicle_id: hit.vehicle.vehicle_id,
              status: hit.vehicle.status,
            },
            now: at,
          },
        );
      }
      found.push(hit.vehicle);
    }
    return found;
  }

  async function dealerContact() {
    const profile = await store.profile();
    return { profile, dealer: { name: profile.trade_name, phone: profile.phones[0].phone } };
  }

  function customerKey(customer) {
    if (customer === undefined) return undefined;
    return (customer.email ?? customer.phone).toLowerCase();
  }

  async function lead(skill, payload, context, keyParts) {
    const at = context.now;
    const { dealer } = await dealerContact();
    const who = customerKey(payload.customer);
    const record = {
      lead_id: `lead_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      skill,
      ...(who === undefined ? {} : { dedupe_key: [skill, who, ...keyParts].join('|') }),
      status: 'received',
      created_ms: at.getTime(),
      ...(context.principal === undefined ? {} : { principal: context.principal }),
      doc: payload,
    };
    const outcome = await store.addLead(record, at.getTime() - DUPLICATE_WINDOW_MS);
    const name = payload.customer?.first_name;
    const message =
      outcome.status === 'duplicate'
        ? `We already have this inquiry (${outcome.lead_id}) from the last 24 hours; ${dealer.name} will follow up on it.`
        : `Thanks${name ? `, ${name}` : ''}. ${dealer.name} received your inquiry; a sales advisor will follow up within one business day.`;
    return {
      type: `${skill}.response`,
      data: { lead_id: outcome.lead_id, status: outcome.status, dealer },
      message,
    };
  }

  return {
    async 'dealer.information'() {
      const profile = await store.profile();
      return {
        data: profile,
        message: `${profile.trade_name}, ${profile.address.line1}, ${profile.address.city}.`,
      };
    },

    async 'inventory.facets'(payload) {
      const facets = await store.facets(payload.filters);
      const total = (facets.conditions ?? []).reduce((sum, c) => sum + c.count, 0);
      return { data: facets, message: `${total} available vehicles match.` };
    },

    async 'inventory.search'(payload) {
      const skip = payload.pagination?.skip ?? 0;
      const asked = payload.pagination?.limit ?? DEFAULT_LIMIT;
      const limit = Math.min(asked, MAX_LIMIT);
      const result = await store.searchVehicles({
        filters: payload.filters,
        sort: payload.sort,
        skip,
        limit,
      });
      const capped = asked > MAX_LIMIT ? ` Pages hold at most ${MAX_LIMIT} vehicles.` : '';
      const first = result.vehicles[0];
      const message =
        result.total === 0
          ? `No available vehicles match.${capped}`
          : `${result.total} available vehicle${result.total === 1 ? '' : 's'} match; showing ${result.vehicles.length} from ${skip + 1}${first ? `, starting with the ${label(first)} at $${first.price.amount}` : ''}.${capped}`;
      return {
        data: {
          total: result.total,
          skip,
          limit,
          vehicles: result.vehicles.map((v) => shown(v, undefined, false)),
        },
        message,
      };
    },

    async 'inventory.vehicle'(payload, context) {
      const ref = { vin: payload.vin, stock: payload.stock, vehicle_id: payload.vehicle_id };
      const [vehicle] = await resolveVehicles([ref], context.now);
      const message = `${label(vehicle)}, ${vehicle.mileage.toLocaleString('en-US')} miles, ${vehicle.status}; out-the-door price $${vehicle.price.amount}.`;
      return { data: shown(vehicle, payload.zip_code, true), message };
    },

    async 'lead.general'(payload, context) {
      return lead('lead.general', payload, context, [
        payload.lead_intent ?? 'other',
        payload.message.trim().toLowerCase(),
      ]);
    },

    async 'lead.vehicle'(payload, context) {
      const vehicles = await resolveVehicles(payload.vehicles, context.now);
      const refs = payload.vehicles.map(
        (v) => v.vin ?? v.stock ?? v.vehicle_id ?? `${v.year} ${v.make} ${v.model}`.toLowerCase(),
      );
      const result = await lead('lead.vehicle', payload, context, refs.sort());
      if (vehicles[0] !== undefined && result.data.status === 'received') {
        result.message = `${result.message} About: ${label(vehicles[0])}${vehicles[0].vin ? ` (VIN ${vehicles[0].vin})` : ''}.`;
      }
      return result;
    },

    async 'lead.appointment'(payload, context) {
      const at = context.now;
      if (payload.timezone !== undefined && !isTimeZone(payload.timezone)) {
        throw aapError('SCHEMA_VALIDATION_FAILED', `timezone ${payload.timezone} is not an IANA timezone`, {
          details: { instancePath: '/timezone', received: payload.timezone },
          now: at,
        });
      }
      if (payload.requested_windows === undefined) {
        throw aapError(
          'MISSING_REQUIRED_FIELD',
          'requested_windows is required: this dealer does not take open-ended appointment requests',
          {
            details: { instancePath: '/requested_windows', missing: 'requested_windows' },
            now: at,
          },
        );
      }
      const windows = payload.requested_windows.map((w, i) => {
        const startMs = Date.parse(w.start);
        const endMs = w.end === undefined ? undefined : Date.parse(w.end);
        if (endMs !== undefined && endMs <= startMs) {
          throw aapError('SCHEMA_VALIDATION_FAILED', `requested_windows.${i}.end must be after its start`, {
            details: { instancePath: `/requested_windows/${i}/end`, received: w.end },
            now: at,
          });
        }
        return { startMs, endMs };
      });
      const vehicles = await resolveVehicles(payload.vehicles, at);
      const { profile, dealer } = await dealerContact();
      const timeZone = profile.timezone;
      const firstWindow = windows[0];
      const durationMs =
        (payload.duration_minutes ??
          (firstWindow.endMs === undefined
            ? 60
            : Math.min(120, Math.max(15, (firstWindow.endMs - firstWindow.startMs) / 60_000)))) * 60_000;
      const nowMs = at.getTime();
      const candidates = windows.flatMap((w) =>
        windowSlots({ ...w, durationMs, nowMs, schedule: profile.schedule, timeZone }),
      );
      const vehicleId = vehicles[0]?.vehicle_id;
      const record = {
        appointment_id: `appt_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        status: 'confirmed',
        appointment_type: payload.appointment_type,
        ...(vehicleId === undefined ? {} : { vehicle_id: vehicleId }),
        created_ms: nowMs,
        doc: payload,
      };
      const booked = await store.bookFirstFree(candidates, record, APPOINTMENT_CAPACITY);
      const what = payload.appointment_type.replace(/_/g, ' ');
      if (booked !== undefined) {
        return {
          data: {
            appointment_id: record.appointment_id,
            status: 'confirmed',
            confirmed_window: { start: iso(booked.start_ms), end: iso(booked.end_ms) },
            dealer,
          },
          message: `Confirmed: ${what} on ${describeTime(booked.start_ms, timeZone)}${vehicles[0] ? ` with the ${label(vehicles[0])}` : ''} at ${profile.address.line1}.`,
        };
      }
      const from = Math.max(nowMs, Math.min(...windows.map((w) => w.startMs)));
      const taken = await store.confirmedBetween(from, from + 15 * 24 * 3_600_000);
      const isFree = (slot) => {
        const overlaps = taken.filter((t) => t.start_ms < slot.end_ms && t.end_ms > slot.start_ms);
        return (
          overlaps.length < APPOINTMENT_CAPACITY &&
          !overlaps.some((t) => vehicleId !== undefined && t.vehicle_id === vehicleId)
        );
      };
      const proposals = nextSlots({
        fromMs: from,
        durationMs,
        schedule: profile.schedule,
        timeZone,
        count: 4,
        days: 14,
        isFree,
      });
      if (proposals.length === 0) {
        throw aapError(
          'APPOINTMENT_TIME_UNAVAILABLE',
          `None of the requested windows can be honored and there is no ${durationMs / 60_000}-minute slot in the next 14 days`,
          {
            details: { duration_minutes: durationMs / 60_000 },
            now: at,
          },
        );
      }
      await store.addAppointment({ ...record, status: 'proposed' });
      return {
        data: {
          appointment_id: record.appointment_id,
          status: 'proposed',
          proposed_slots: proposals.map((s) => ({ start: iso(s.start_ms), end: iso(s.end_ms) })),
          dealer,
        },
        message: `The requested times are not available. Open slots: ${proposals.map((s) => describeTime(s.start_ms, timeZone)).join('; ')}. Send a new request with the slot you prefer.`,
      };
    },
  };
}
