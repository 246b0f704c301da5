/**
 * A form generated from a contract's `input` JSON Schema (the contracts seed; decision 0159), so
 * a person can invoke a contract without writing its envelope: object properties become labelled
 * controls, nested objects fieldsets, and what has no control of its own a JSON text box. What the
 * person typed is kept raw (keyed by JSON Pointer) and turned into the payload only on sending, so
 * a number field holding "abc" stays "abc" and the schema check names it instead of it vanishing.
 */
import type { ContractSchema } from '../../../src/contracts/contract-types';

type Schema = Readonly<Record<string, unknown>>;

/** What the person typed, by the JSON Pointer of each field (`/topic`, `/filters/since`). */
export type Draft = Readonly<Record<string, string | boolean>>;

/** A problem with one field (`pointer` as in the payload; '' for the payload itself). */
export interface FieldError {
  pointer: string;
  message: string;
}

type Kind = 'object' | 'enum' | 'string' | 'number' | 'boolean' | 'strings' | 'json';

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The control a schema gets; a type list picks its first non-null member. */
function kindOf(schema: unknown): Kind {
  if (!isSchema(schema)) return 'json';
  if (Array.isArray(schema.enum) && schema.enum.every((e) => typeof e === 'string')) return 'enum';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' && isSchema(schema.properties)) return 'object';
  if (type === 'array') {
    const items = schema.items;
    return isSchema(items) && items.type === 'string' && items.enum === undefined ? 'strings' : 'json';
  }
  if (type === 'string') return 'string';
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'json';
}

function child(pointer: string, key: string): string {
  return `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The payload the draft describes. An empty control means "not given" (so a required one is
 * reported missing); JSON that does not parse is reported here, everything else by the schema.
 */
export function payloadOf(schema: ContractSchema, draft: Draft): { value: unknown; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const build = (node: unknown, pointer: string, required: boolean): unknown => {
    const raw = draft[pointer];
    switch (kindOf(node)) {
      case 'object': {
        const object: Record<string, unknown> = {};
        const properties = (node as Schema).properties as Record<string, unknown>;
        const needed = new Set(((node as Schema).required as string[] | undefined) ?? []);
        for (const [key, sub] of Object.entries(properties)) {
          const value = build(sub, child(pointer, key), needed.has(key));
          if (value !== undefined) object[key] = value;
        }
        return pointer === '' || required || Object.keys(object).length > 0 ? object : undefined;
      }
      case 'boolean':
        return typeof raw === 'boolean' ? raw : required ? false : undefined;
      case 'strings': {
        const lines = String(raw ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '');
        return lines.length > 0 ? lines : undefined;
      }
      case 'number': {
        const text = String(raw ?? '').trim();
        if (text === '') return undefined;
        return NUMBER.test(text) ? Number(text) : text;
      }
      case 'json': {
        const text = String(raw ?? '').trim();
        if (text === '') return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          problems.push({ pointer, message: 'is not valid JSON' });
          return undefined;
        }
      }
      default:
        return raw === undefined || raw === '' ? undefined : String(raw);
    }
  };
  return { value: build(schema, '', true), problems };
}

/** The schema check's findings as field errors; `required` is moved onto the missing field. */
export function fieldErrors(
  errors: readonly { instanceLocation: string; keyword: string; error: string }[],
): FieldError[] {
  const found: FieldError[] = [];
  for (const e of errors) {
    // These only say that something below failed; the failure below is reported on its own.
    if (['properties', 'items', 'prefixItems', 'allOf', '$ref'].includes(e.keyword)) continue;
    let pointer = e.instanceLocation.replace(/^#/, '');
    let message = e.error;
    const missing = e.keyword === 'required' ? /property "(.*)"\.$/.exec(e.error) : null;
    if (missing !== null) {
      pointer = child(pointer, missing[1]!);
      message = 'is required';
    }
    if (!found.some((f) => f.pointer === pointer && f.message === message)) found.push({ pointer, message });
  }
  return found;
}

/** An element id for the field at `pointer`. */
export function fieldId(pointer: string): string {
  return `field${pointer.replace(/[^A-Za-z0-9_-]/g, (c) => (c === '/' ? '-' : '_'))}`;
}

interface FormProps {
  schema: ContractSchema;
  draft: Draft;
  errors: readonly FieldError[];
  onChange: (pointer: string, raw: string | boolean) => void;
}

/** The controls of `schema`'s payload. */
export function SchemaForm(props: FormProps) {
  const { schema } = props;
  if (kindOf(schema) !== 'object')
    return <Field {...props} node={schema} pointer="" label="Payload (JSON)" required />;
  return <Properties {...props} node={schema as Schema} pointer="" />;
}

function Properties(props: FormProps & { node: Schema; pointer: string }) {
  const needed = new Set((props.node.required as string[] | undefined) ?? []);
  return (
    <>
      {Object.entries(props.node.properties as Record<string, unknown>).map(([key, sub]) => (
        <Field
          key={key}
          {...props}
          node={sub}
          pointer={child(props.pointer, key)}
          label={isSchema(sub) && typeof sub.title === 'string' ? sub.title : key}
          required={needed.has(key)}
        />
      ))}
    </>
  );
}

function Field(props: FormProps & { node: unknown; pointer: string; label: string; required: boolean }) {
  const { node, pointer, draft, onChange, required } = props;
  const kind = kindOf(node);
  const id = fieldId(pointer);
  const description = isSchema(node) && typeof node.description === 'string' ? node.description : undefined;
  const mine = props.errors.filter((e) => e.pointer === pointer);
  const label = (
    <>
      {props.label}
      {required ? <span class="required"> (required)</span> : null}
      {kind === 'strings' ? <span class="muted"> — one per line</span> : null}
      {kind === 'json' && pointer !== '' ? <span class="muted"> — JSON</span> : null}
    </>
  );
  if (kind === 'object') {
    return (
      <fieldset>
        <legend>{label}</legend>
        {description === undefined ? null : <p class="muted">{description}</p>}
        <Properties {...props} node={node as Schema} />
        <Problems id={`${id}-error`} errors={mine} />
      </fieldset>
    );
  }
  const describedBy =
    [description === undefined ? '' : `${id}-hint`, mine.length === 0 ? '' : `${id}-error`]
      .filter((s) => s !== '')
      .join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': mine.length > 0 ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    'aria-required': required ? ('true' as const) : undefined,
  };
  const raw = draft[pointer];
  const text = typeof raw === 'string' ? raw : '';
  const input = (event: Event) => onChange(pointer, (event.currentTarget as HTMLInputElement).value);
  let control;
  if (kind === 'boolean') {
    control = (
      <input
        {...common}
        type="checkbox"
        checked={raw === true}
        onChange={(e) => onChange(pointer, e.currentTarget.checked)}
      />
    );
  } else if (kind === 'enum') {
    control = (
      <select {...common} value={text} onChange={input}>
        <option value="">—</option>
        {((node as Schema).enum as string[]).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (kind === 'strings' || kind === 'json') {
    control = <textarea {...common} rows={kind === 'json' ? 5 : 3} value={text} onInput={input} />;
  } else {
    // A text box with a numeric keyboard rather than type=number, which would turn "abc" into ""
    // and hide the mistake from the schema check.
    const numeric = kind === 'number';
    const integer = isSchema(node) && node.type === 'integer';
    control = (
      <input
        {...common}
        type="text"
        inputMode={numeric ? (integer ? 'numeric' : 'decimal') : undefined}
        value={text}
        onInput={input}
      />
    );
  }
  return (
    <div class={kind === 'boolean' ? 'field check' : 'field'}>
      <label for={id}>{label}</label>
      {control}
      {description === undefined ? null : (
        <span id={`${id}-hint`} class="muted hint">
          {description}
        </span>
      )}
      <Problems id={`${id}-error`} errors={mine} />
    </div>
  );
}

function Problems({ id, errors }: { id: string; errors: readonly FieldError[] }) {
  if (errors.length === 0) return null;
  return (
    <span id={id} class="field-error">
      {errors.map((e) => e.message).join('; ')}
    </span>
  );
}
