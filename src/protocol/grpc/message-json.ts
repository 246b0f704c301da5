/**
 * Protobuf messages (as protobufjs decodes them) to ProtoJSON and back, driven by the message
 * descriptors, so the gRPC binding reuses the ProtoJSON codecs of each version (A2A 1.0 §5.5: 1.0
 * is ProtoJSON of `lf.a2a.v1` on every binding, 0.3 REST is ProtoJSON of `a2a.v1`). The rules are
 * the proto3 JSON mapping: `json_name` (or lowerCamelCase) member names, enums by name, `bytes` as
 * base64, 64-bit integers as strings, `Struct`/`Value`/`ListValue` as plain JSON, `Timestamp` as
 * RFC 3339 in UTC, `Empty` as `{}`, and implicit-presence fields left out at their default.
 *
 * Pure: the descriptors come from the caller (the schema is loaded by the server or client).
 */
import type { Enum, Field, Type } from 'protobufjs';

/** A JSON object. */
type Json = Record<string, unknown>;

/** What the walkers need per field, computed once per message type. */
interface FieldPlan {
  readonly field: Field;
  readonly name: string;
  readonly jsonName: string;
  /** Implicit presence: a proto3 singular scalar outside any oneof (its default means unset). */
  readonly implicit: boolean;
  readonly enumType: Enum | undefined;
  readonly messageType: Type | undefined;
}

interface TypePlan {
  readonly fields: readonly FieldPlan[];
  readonly byJsonName: ReadonlyMap<string, FieldPlan>;
}

const plans = new WeakMap<Type, TypePlan>();

const STRUCT = '.google.protobuf.Struct';
const VALUE = '.google.protobuf.Value';
const LIST_VALUE = '.google.protobuf.ListValue';
const TIMESTAMP = '.google.protobuf.Timestamp';
const EMPTY = '.google.protobuf.Empty';

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function lowerCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The ProtoJSON member name of a field: its `json_name`, or its name in lowerCamelCase. */
export function fieldJsonName(field: Field): string {
  return (field.options?.json_name as string | undefined) ?? lowerCamel(field.name);
}

function planOf(type: Type): TypePlan {
  let plan = plans.get(type);
  if (plan !== undefined) return plan;
  const fields = type.fieldsArray.map((field): FieldPlan => {
    field.resolve();
    const resolved = field.resolvedType;
    const isEnum = resolved !== null && 'valuesById' in resolved;
    const messageType = resolved !== null && !isEnum ? (resolved as Type) : undefined;
    return {
      field,
      name: field.name,
      jsonName: fieldJsonName(field),
      // Scalars and enums outside a oneof (proto3 `optional` is a synthetic oneof) have no presence.
      implicit: !field.repeated && !field.map && field.partOf === null && messageType === undefined,
      enumType: isEnum ? (resolved as Enum) : undefined,
      messageType,
    };
  });
  const byJsonName = new Map<string, FieldPlan>();
  for (const f of fields) {
    byJsonName.set(f.jsonName, f);
    byJsonName.set(f.name, f);
  }
  plan = { fields, byJsonName };
  plans.set(type, plan);
  return plan;
}

function isDefault(value: unknown): boolean {
  if (value === 0 || value === false || value === '') return true;
  if (value instanceof Uint8Array) return value.length === 0;
  if (typeof value === 'object' && value !== null && 'low' in value && 'high' in value) {
    return (value as { low: number; high: number }).low === 0 && (value as { high: number }).high === 0;
  }
  return false;
}

// ---- wire form (protobufjs message) -> ProtoJSON ----

/** The ProtoJSON object of a decoded message of `type`. */
export function messageToJson(type: Type, message: object): Json {
  const out: Json = {};
  const source = message as Record<string, unknown>;
  for (const plan of planOf(type).fields) {
    if (!Object.hasOwn(source, plan.name)) continue;
    const value = source[plan.name];
    if (value === undefined || value === null) continue;
    // Repeated fields and maps have no presence: empty ones are left out, as ProtoJSON does
    // (protobufjs gives every message its own empty arrays and maps).
    if (plan.field.map) {
      const entries = Object.entries(value as Json);
      if (entries.length === 0) continue;
      const map: Json = {};
      for (const [key, item] of entries) map[key] = singleToJson(plan, item);
      out[plan.jsonName] = map;
    } else if (plan.field.repeated) {
      const list = value as unknown[];
      if (list.length === 0) continue;
      out[plan.jsonName] = list.map((item) => singleToJson(plan, item));
    } else {
      if (plan.implicit && isDefault(value)) continue;
      out[plan.jsonName] = singleToJson(plan, value);
    }
  }
  return out;
}

function singleToJson(plan: FieldPlan, value: unknown): unknown {
  if (plan.enumType !== undefined) return plan.enumType.valuesById[value as number] ?? value;
  if (plan.messageType !== undefined) return wellKnownToJson(plan.messageType, value as object);
  const type = plan.field.type;
  if (type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  if (LONG_TYPES.has(type)) return String(value);
  if ((type === 'double' || type === 'float') && !Number.isFinite(value as number)) return String(value);
  return value;
}

function wellKnownToJson(type: Type, value: object): unknown {
  switch (type.fullName) {
    case STRUCT:
      return structToJson(value);
    case VALUE:
      return valueToJson(value);
    case LIST_VALUE:
      return listToJson(value);
    case TIMESTAMP:
      return timestampToJson(value);
    case EMPTY:
      return {};
    default:
      return messageToJson(type, value);
  }
}

function structToJson(struct: object): Json {
  const out: Json = {};
  const fields = (struct as { fields?: Record<string, object> }).fields ?? {};
  for (const [key, value] of Object.entries(fields)) out[key] = valueToJson(value);
  return out;
}

function listToJson(list: object): unknown[] {
  return ((list as { values?: object[] }).values ?? []).map(valueToJson);
}

function valueToJson(value: object | null | undefined): unknown {
  // A map entry sent without its value decodes as undefined: the Struct member reads as null.
  if (value === null || value === undefined) return null;
  const v = value as Record<string, unknown>;
  if (Object.hasOwn(v, 'nullValue')) return null;
  if (Object.hasOwn(v, 'numberValue')) return v.numberValue;
  if (Object.hasOwn(v, 'stringValue')) return v.stringValue;
  if (Object.hasOwn(v, 'boolValue')) return v.boolValue;
  if (Object.hasOwn(v, 'structValue')) return structToJson(v.structValue as object);
  if (Object.hasOwn(v, 'listValue')) return listToJson(v.listValue as object);
  // A Value with no kind set carries no JSON value; null is its closest reading.
  return null;
}

/**
 * RFC 3339 in UTC with the fraction in 3, 6 or 9 digits (proto3 JSON); always at least
 * milliseconds, as A2A 1.0 asks (A2A 1.0 §5.6.1), so a timestamp reads the same on every binding.
 */
function timestampToJson(value: object): string {
  const v = value as { seconds?: unknown; nanos?: number };
  const seconds = Number(v.seconds ?? 0);
  const nanos = v.nanos ?? 0;
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const nine = String(nanos).padStart(9, '0');
  const digits = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${base}.${nine.slice(0, digits)}Z`;
}

// ---- ProtoJSON -> plain object in protobufjs' form (for Type.fromObject) ----

/**
 * The plain object of `json` for `type.fromObject`: members renamed to field names, well-known
 * types expanded, base64 decoded. Members the message does not have are left out (proto3 JSON
 * parsers ignore unknown fields).
 */
export function jsonToPlain(type: Type, json: unknown): Json {
  const out: Json = {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return out;
  const plan = planOf(type);
  for (const [key, value] of Object.entries(json as Json)) {
    const field = plan.byJsonName.get(key);
    if (field === undefined) continue;
    if (value === undefined) continue;
    if (value === null && field.messageType?.fullName !== VALUE) continue;
    if (field.field.map) {
      const map: Json = {};
      for (const [k, item] of Object.entries(value as Json)) map[k] = singleToPlain(field, item);
      out[field.name] = map;
    } else if (field.field.repeated) {
      out[field.name] = (value as unknown[]).map((item) => singleToPlain(field, item));
    } else {
      out[field.name] = singleToPlain(field, value);
    }
  }
  return out;
}

function singleToPlain(plan: FieldPlan, value: unknown): unknown {
  if (plan.messageType !== undefined) {
    switch (plan.messageType.fullName) {
      case STRUCT:
        return structToPlain(value);
      case VALUE:
        return valueToPlain(value);
      case LIST_VALUE:
        return { values: (value as unknown[]).map(valueToPlain) };
      case TIMESTAMP:
        return timestampToPlain(String(value));
      case EMPTY:
        return {};
      default:
        return jsonToPlain(plan.messageType, value);
    }
  }
  if (plan.field.type === 'bytes' && typeof value === 'string') return Buffer.from(value, 'base64');
  return value;
}

function structToPlain(value: unknown): Json {
  const fields: Json = {};
  for (const [key, item] of Object.entries((value ?? {}) as Json)) fields[key] = valueToPlain(item);
  return { fields };
}

function valueToPlain(value: unknown): Json {
  if (value === null || value === undefined) return { nullValue: 0 };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueToPlain) } };
  return { structValue: structToPlain(value) };
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** `{seconds, nanos}` of an RFC 3339 timestamp (the codecs have already checked its form). */
function timestampToPlain(text: string): Json {
  const m = RFC3339.exec(text);
  if (m === null) throw new Error(`not an RFC 3339 timestamp: ${JSON.stringify(text)}`);
  const utc = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
  );
  const offset = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) * 60;
  return { seconds: utc / 1000 - offset, nanos: Number((m[7] ?? '').padEnd(9, '0')) };
}
