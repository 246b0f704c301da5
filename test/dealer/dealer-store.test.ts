/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read loosely in assertions */
// One test suite for the dealer's data port, run against every implementation: SQLite always,
// PostgreSQL when CONCORD_TEST_POSTGRES_URL is set (CI starts one; the suite says when it skips).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JS example modules without type declarations
import { openDealerStore } from '../../examples/dealer/lib/dealer-store.mjs';
// @ts-expect-error -- plain JS example modules without type declarations
import { DEALER_PROFILE, generateInventory } from '../../examples/dealer/lib/inventory-data.mjs';

type Store = Record<string, (...args: any[]) => Promise<any>>;

const POSTGRES = process.env.CONCORD_TEST_POSTGRES_URL;
const implementations: {
  name: string;
  open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>;
}[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'concord-dealer-store-'));
      const store = (await openDealerStore({ sqlitePath: join(dir, 'dealer.db') })) as Store;
      return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];
if (POSTGRES !== undefined && POSTGRES !== '') {
  implementations.push({
    name: 'postgres',
    open: async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      for (const table of ['dealer_meta', 'dealer_vehicles', 'dealer_leads', 'dealer_appointments']) {
        await client.query(`DROP TABLE IF EXISTS ${table}`);
      }
      await client.end();
      const store = (await openDealerStore({ databaseUrl: POSTGRES })) as Store;
      return { store, cleanup: async () => undefined };
    },
  });
} else {
  describe('dealer store on postgres', () => {
    it.skip('skipped: set CONCORD_TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it', () => {});
  });
  console.warn('[dealer-store] PostgreSQL suite skipped: CONCORD_TEST_POSTGRES_URL is not set');
}

const vehicles = generateInventory(600) as Record<string, any>[];
const available = vehicles.filter((v) => v.status !== 'Sold');

for (const impl of implementations) {
  describe(`dealer store on ${impl.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await impl.open());
      expect(await store.seed!(DEALER_PROFILE, vehicles, 'test-1')).toBe(true);
    }, 60_000);
    afterAll(async () => {
      await store?.close!();
      await cleanup?.();
    });

    it('seeds once and keeps the profile', async () => {
      expect(await store.seed!(DEALER_PROFILE, vehicles, 'test-1')).toBe(false);
      expect(await store.profile!()).toEqual(DEALER_PROFILE);
    });

    it('searches available vehicles only, filtered, sorted and paged', async () => {
      const all = await store.searchVehicles!({ skip: 0, limit: 1000 });
      expect(all.total).toBe(available.length);
      expect(all.vehicles.every((v: { status: string }) => v.status !== 'Sold')).toBe(true);
      const filters = { make: ['honda'], condition: ['used', 'certified'], year_min: 2020, price_max: 30000 };
      const expected = available.filter(
        (v) => v.make === 'Honda' && v.condition !== 'new' && v.year >= 2020 && v.price.amount <= 30000,
      );
      const page = await store.searchVehicles!({
        filters,
        sort: { field: 'price', order: 'desc' },
        skip: 1,
        limit: 3,
      });
      expect(page.total).toBe(expected.length);
      const prices = expected.map((v) => v.price.amount).sort((a, b) => b - a);
      expect(page.vehicles.map((v: { price: { amount: number } }) => v.price.amount)).toEqual(
        prices.slice(1, 4),
      );
      const byVin = await store.searchVehicles!({ filters: { vin: '1HGCY2F57RA000001' }, skip: 0, limit: 5 });
      expect(byVin.vehicles.map((v: { model: string }) => v.model)).toEqual(['Civic']);
      const text = await store.searchVehicles!({ filters: { query: 'certified civic' }, skip: 0, limit: 50 });
      expect(
        text.vehicles.every(
          (v: { model: string; condition: string }) => v.model === 'Civic' && v.condition === 'certified',
        ),
      ).toBe(true);
      expect(text.total).toBeGreaterThan(0);
    });

    it('aggregates facets over available vehicles', async () => {
      const facets = await store.facets!({ condition: ['used'] });
      expect(facets.conditions).toEqual([
        { value: 'used', count: available.filter((v) => v.condition === 'used').length },
      ]);
      expect(facets.statuses.map((s: { value: string }) => s.value)).not.toContain('Sold');
      expect(facets.price_range.min).toBeLessThanOrEqual(facets.price_range.max);
      expect(facets.makes.reduce((n: number, m: { count: number }) => n + m.count, 0)).toBe(
        facets.conditions[0].count,
      );
    });

    it('finds vehicles by VIN, stock or id, sold ones as unavailable', async () => {
      expect((await store.findVehicle!({ stock: 'DT-2451' })).vehicle.model).toBe('CR-V');
      expect(await store.findVehicle!({ vin: '4T1G11AK5NU000013' })).toMatchObject({ available: false });
      expect(await store.findVehicle!({ vehicle_id: 'veh_dt_2611' })).toMatchObject({ available: true });
      expect(await store.findVehicle!({ vin: '1HGCY2F57RA999999' })).toBeUndefined();
    });

    it('stores leads and answers duplicates inside the window', async () => {
      const lead = (id: string, at: number) => ({
        lead_id: id,
        skill: 'lead.general',
        dedupe_key: 'k1',
        status: 'received',
        created_ms: at,
        doc: { n: id },
      });
      expect(await store.addLead!(lead('l1', 1_000_000), 0)).toEqual({ status: 'received', lead_id: 'l1' });
      expect(await store.addLead!(lead('l2', 1_000_500), 900_000)).toEqual({
        status: 'duplicate',
        lead_id: 'l1',
      });
      expect(await store.addLead!(lead('l3', 5_000_000), 2_000_000)).toEqual({
        status: 'received',
        lead_id: 'l3',
      });
      const { leads } = await store.records!();
      expect(leads.map((l: { lead_id: string }) => l.lead_id)).toEqual(['l1', 'l3']);
      expect(leads[0].doc).toEqual({ n: 'l1' });
    });

    it('books the first slot with room, never twice for one vehicle or over capacity', async () => {
      const hour = 3_600_000;
      const base = Date.parse('2026-06-01T17:00:00Z');
      const slots = [
        { start_ms: base, end_ms: base + hour },
        { start_ms: base + hour, end_ms: base + 2 * hour },
      ];
      const record = (id: string, vehicle?: string) => ({
        appointment_id: id,
        status: 'confirmed',
        appointment_type: 'test_drive',
        ...(vehicle ? { vehicle_id: vehicle } : {}),
        created_ms: 1,
        doc: {},
      });
      expect(await store.bookFirstFree!(slots, record('a1', 'v1'), 2)).toEqual(slots[0]);
      expect(await store.bookFirstFree!(slots, record('a2', 'v1'), 2)).toEqual(slots[1]);
      expect(await store.bookFirstFree!(slots, record('a3', 'v2'), 2)).toEqual(slots[0]);
      expect(await store.bookFirstFree!([slots[0]], record('a4'), 2)).toBeUndefined();
      await store.addAppointment!({ ...record('a5'), status: 'proposed' });
      const taken = await store.confirmedBetween!(base, base + 2 * hour);
      expect(taken).toHaveLength(3);
      const { appointments } = await store.records!();
      expect(appointments.map((a: { status: string }) => a.status).sort()).toEqual([
        'confirmed',
        'confirmed',
        'confirmed',
        'proposed',
      ]);
    });
  });
}
