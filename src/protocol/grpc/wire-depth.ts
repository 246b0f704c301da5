/**
 * The nesting bound of decision 0144 on gRPC: how deep a request message's ProtoJSON form
 * (message-json.ts) nests, read from its bytes before protobufjs decodes them. The HTTP bindings
 * measure the parsed JSON; this walks the protobuf wire format with an explicit stack, guided by
 * the descriptors, so a request refused on HTTP+JSON is refused here at the same pointer, and no
 * decoder recurses into a message nested past the bound.
 *
 * Levels as ProtoJSON has them: a message, a Struct, a ListValue, a map and a repeated field are
 * one level each (an object or an array); a Value is whatever it holds (no level of its own); a
 * Timestamp is a string. Malformed bytes end the walk without a verdict: protobufjs then refuses
 * them as it always has.
 */
import type { Field, Type } from 'protobufjs';
import { depthPointer } from '../json-depth.js';
import { fieldJsonName } from './message-json.js';

type Kind = 'message' | 'struct' | 'list' | 'value' | 'scalar';

/** What a field of a message means for nesting, derived once per field. */
interface Step {
  readonly segment: string;
  /** `repeated` is an array and `map` an object, one level below the message. */
  readonly shape: 'single' | 'repeated' | 'map';
  /** The kind of the field's value (of a map's values, for maps). */
  readonly kind: Kind;
  readonly type: Type | undefined;
}

const KIND_OF: Readonly<Record<string, Kind>> = {
  '.google.protobuf.Struct': 'struct',
  '.google.protobuf.ListValue': 'list',
  '.google.protobuf.Value': 'value',
  '.google.protobuf.Timestamp': 'scalar',
  '.google.protobuf.Duration': 'scalar',
};

const steps = new WeakMap<Type, Map<number, Step | null>>();

function stepOf(type: Type, id: number): Step | null {
  let byId = steps.get(type);
  if (byId === undefined) {
    byId = new Map();
    steps.set(type, byId);
  }
  let step = byId.get(id);
  if (step === undefined) {
    const field = type.fieldsById[id] as Field | undefined;
    step = field === undefined ? null : describe(field);
    byId.set(id, step);
  }
  return step;
}

function describe(field: Field): Step {
  field.resolve();
  const resolved = field.resolvedType;
  const type = resolved !== null && !('valuesById' in resolved) ? (resolved as Type) : undefined;
  return {
    segment: fieldJsonName(field),
    shape: field.map ? 'map' : field.repeated ? 'repeated' : 'single',
    kind: type === undefined ? 'scalar' : (KIND_OF[type.fullName] ?? 'message'),
    type,
  };
}

/** A path segment; a map key stays a byte range until a pointer is needed. */
type Segment = string | number | { readonly start: number; readonly end: number };

/** A path as a linked list: entering a message adds one node instead of copying the path. */
interface PathNode {
  readonly up: PathNode | undefined;
  readonly segment: Segment;
}

/** A message being read: a Value sits at `level`; anything else is an object or array there. */
interface Frame {
  readonly kind: Exclude<Kind, 'scalar'>;
  readonly type: Type | undefined;
  readonly level: number;
  readonly end: number;
  /** Where the enclosing message goes on once this one is read (past a map entry's key). */
  readonly resume: number;
  readonly path: PathNode | undefined;
  /** Elements seen so far per repeated field (array indices). */
  counts?: Map<number, number>;
}

/** Bytes that are not a protobuf message: the walk gives no verdict. */
class Malformed extends Error {}

/**
 * The JSON Pointer of the first object or array of the ProtoJSON form of `bytes` (a `type`
 * message, itself level 1) nested deeper than `max` levels; undefined when none is, or when the
 * bytes are not a well-formed message.
 */
export function wirePathPastDepth(type: Type, bytes: Uint8Array, max: number): string | undefined {
  try {
    const found = walk(type, bytes, max);
    return found === undefined ? undefined : pointerOf(found.path, bytes);
  } catch (error) {
    if (error instanceof Malformed) return undefined;
    throw error;
  }
}

function walk(type: Type, bytes: Uint8Array, max: number): { path: PathNode | undefined } | undefined {
  const reader = new WireReader(bytes);
  const root: Frame = {
    kind: 'message',
    type,
    level: 1,
    end: bytes.length,
    resume: bytes.length,
    path: undefined,
  };
  if (root.level > max) return { path: undefined };
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (reader.pos >= frame.end) {
      stack.pop();
      reader.pos = frame.resume;
      continue;
    }
    const tag = reader.varint();
    const id = tag >>> 3;
    const wireType = tag & 7;
    const step = frame.kind === 'message' && frame.type !== undefined ? stepOf(frame.type, id) : null;
    // A repeated field is an array and a map an object, one level below the message, whatever
    // their elements are.
    if (step !== null && step.shape !== 'single' && frame.level + 1 > max) {
      return { path: { up: frame.path, segment: step.segment } };
    }
    if (wireType !== 2) {
      reader.skip(wireType);
      continue;
    }
    const length = reader.varint();
    const start = reader.pos;
    const end = start + length;
    if (end > frame.end) throw new Malformed();
    reader.pos = end;
    const child =
      frame.kind === 'message'
        ? fieldChild(frame, id, step, start, end, reader)
        : wellKnownChild(frame, id, start, end, reader);
    if (child === undefined) continue;
    if (child.kind !== 'value' && child.level > max) return { path: child.path };
    reader.pos = child.start;
    stack.push(child);
  }
  return undefined;
}

/** A frame with the offset its bytes start at. */
type Child = Frame & { readonly start: number };

function child(
  kind: Frame['kind'],
  type: Type | undefined,
  level: number,
  path: PathNode | undefined,
  range: { start: number; end: number },
  resume: number,
): Child {
  return { kind, type, level, path, start: range.start, end: range.end, resume };
}

/** The next array index of repeated field `id` in `frame`. */
function nextIndex(frame: Frame, id: number): number {
  const counts = (frame.counts ??= new Map());
  const index = counts.get(id) ?? 0;
  counts.set(id, index + 1);
  return index;
}

/** What a length-delimited field of an ordinary message opens, if anything. */
function fieldChild(
  frame: Frame,
  id: number,
  step: Step | null,
  start: number,
  end: number,
  reader: WireReader,
): Child | undefined {
  // Strings, bytes, packed scalars, unknown fields and Timestamps open nothing.
  if (step === null || step.kind === 'scalar') return undefined;
  const kind = step.kind;
  const field: PathNode = { up: frame.path, segment: step.segment };
  switch (step.shape) {
    case 'single':
      return child(kind, step.type, frame.level + 1, field, { start, end }, end);
    case 'repeated': {
      const item = { up: field, segment: nextIndex(frame, id) };
      return child(kind, step.type, frame.level + 2, item, { start, end }, end);
    }
    case 'map': {
      const entry = readEntry(reader, start, end);
      if (entry.value === undefined) return undefined;
      return child(kind, step.type, frame.level + 2, { up: field, segment: entry.key }, entry.value, end);
    }
  }
}

/** What a length-delimited field of a Value, Struct or ListValue opens, if anything. */
function wellKnownChild(
  frame: Frame,
  id: number,
  start: number,
  end: number,
  reader: WireReader,
): Child | undefined {
  switch (frame.kind) {
    case 'value':
      // struct_value (5) and list_value (6) are the Value itself: same place, same level.
      if (id === 5) return child('struct', undefined, frame.level, frame.path, { start, end }, end);
      if (id === 6) return child('list', undefined, frame.level, frame.path, { start, end }, end);
      return undefined;
    case 'struct': {
      // `fields` (1): entries whose Values are this object's members.
      if (id !== 1) return undefined;
      const entry = readEntry(reader, start, end);
      if (entry.value === undefined) return undefined;
      const member = { up: frame.path, segment: entry.key };
      return child('value', undefined, frame.level + 1, member, entry.value, end);
    }
    case 'list': {
      // `values` (1): this array's elements.
      if (id !== 1) return undefined;
      const item = { up: frame.path, segment: nextIndex(frame, id) };
      return child('value', undefined, frame.level + 1, item, { start, end }, end);
    }
    default:
      return undefined;
  }
}

/** A map entry's key (field 1) and the byte range of its value (field 2), the last of each. */
function readEntry(
  reader: WireReader,
  start: number,
  end: number,
): { key: Segment; value: { start: number; end: number } | undefined } {
  const outer = reader.pos;
  reader.pos = start;
  let key: Segment = '';
  let value: { start: number; end: number } | undefined;
  while (reader.pos < end) {
    const tag = reader.varint();
    const wireType = tag & 7;
    if (wireType === 2) {
      const length = reader.varint();
      const at = reader.pos;
      if (at + length > end) throw new Malformed();
      reader.pos = at + length;
      if (tag >>> 3 === 1) key = { start: at, end: at + length };
      else if (tag >>> 3 === 2) value = { start: at, end: at + length };
    } else if (wireType === 0 && tag >>> 3 === 1) {
      key = reader.varint();
    } else {
      reader.skip(wireType);
    }
  }
  reader.pos = outer;
  return { key, value };
}

function pointerOf(path: PathNode | undefined, bytes: Uint8Array): string {
  const segments: (string | number)[] = [];
  for (let node = path; node !== undefined; node = node.up) {
    const segment = node.segment;
    segments.push(
      typeof segment === 'object'
        ? Buffer.from(bytes.buffer, bytes.byteOffset + segment.start, segment.end - segment.start).toString(
            'utf8',
          )
        : segment,
    );
  }
  return depthPointer('', segments.reverse());
}

/** The protobuf wire format, as far as the walk needs it: varints, and skipping a field. */
class WireReader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new Malformed();
      const byte = this.bytes[this.pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new Malformed();
  }

  /** Skips a field of `wireType` (2 included); groups (3) are skipped whole, without recursing. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.advance(this.varint());
        return;
      case 3: {
        let open = 1;
        while (open > 0) {
          const inner = this.varint() & 7;
          if (inner === 3) open++;
          else if (inner === 4) open--;
          else this.skip(inner);
        }
        return;
      }
      case 5:
        this.advance(4);
        return;
      default:
        throw new Malformed();
    }
  }

  private advance(count: number): void {
    if (this.pos + count > this.bytes.length) throw new Malformed();
    this.pos += count;
  }
}
