/**
 * Descriptors that reflection clients can link. protobufjs writes one FileDescriptorProto per
 * package with no `dependency` list (grpc-node issue 2595) and no `json_name`; @grpc/reflection
 * ships the referenced files along but cannot fix the files themselves, and strict linkers (Go's
 * protodesc, which grpcurl uses) refuse such files. This drops the copied extension fields, names
 * each file's dependencies from the types it references and restores explicit `json_name`s, then
 * hands the package definition on.
 */
import { createRequire } from 'node:module';
import type { PackageDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);

// Type names are rewritten in place and may stay undefined: `fromObject` skips undefined fields.
interface FieldProto {
  name?: string;
  typeName?: string | undefined;
  extendee?: string | undefined;
  jsonName?: string;
}
interface MessageProto {
  name?: string;
  field?: FieldProto[];
  extension?: FieldProto[];
  nestedType?: MessageProto[];
  enumType?: { name?: string }[];
}
interface FileProto {
  name?: string;
  package?: string;
  dependency?: string[];
  messageType?: MessageProto[];
  enumType?: { name?: string }[];
  service?: {
    name?: string;
    method?: { inputType?: string | undefined; outputType?: string | undefined }[];
  }[];
  extension?: FieldProto[];
}

function walkMessages(
  prefix: string,
  messages: MessageProto[] | undefined,
  visit: (fqn: string, m: MessageProto) => void,
): void {
  for (const message of messages ?? []) {
    const fqn = `${prefix}.${message.name ?? ''}`;
    visit(fqn, message);
    walkMessages(fqn, message.nestedType, visit);
  }
}

/** The package definition with every file's dependencies and json names filled in. */
export function linkableDescriptors(pkg: PackageDefinition, root: protobuf.Root): PackageDefinition {
  const descriptor = protobuf.Root.fromJSON(
    require('protobufjs/google/protobuf/descriptor.json') as protobuf.INamespace,
  );
  const FileDescriptorProto = descriptor.lookupType('google.protobuf.FileDescriptorProto');
  const files = new Map<string, FileProto>();
  for (const entry of Object.values(pkg)) {
    for (const bytes of (entry as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos ?? []) {
      const file = FileDescriptorProto.toObject(FileDescriptorProto.decode(bytes)) as FileProto;
      if (file.name !== undefined && !files.has(file.name)) files.set(file.name, file);
    }
  }
  const owner = new Map<string, string>();
  for (const [name, file] of files) {
    const prefix = file.package === undefined || file.package === '' ? '' : `.${file.package}`;
    for (const e of file.enumType ?? []) owner.set(`${prefix}.${e.name ?? ''}`, name);
    for (const s of file.service ?? []) owner.set(`${prefix}.${s.name ?? ''}`, name);
    walkMessages(prefix, file.messageType, (fqn, m) => {
      owner.set(fqn, name);
      for (const e of m.enumType ?? []) owner.set(`${fqn}.${e.name ?? ''}`, name);
    });
  }
  // protobufjs may write a type name relative to its scope (`Value` inside google.protobuf.Struct);
  // descriptors name types fully qualified, so resolve it the way protoc does, innermost scope first.
  const qualify = (type: string | undefined, scope: string): string | undefined => {
    if (type === undefined || type === '' || type.startsWith('.')) return type;
    for (let at = scope; ; at = at.slice(0, Math.max(0, at.lastIndexOf('.')))) {
      const candidate = `${at}.${type}`;
      if (owner.has(candidate)) return candidate;
      if (at === '') return `.${type}`;
    }
  };
  const encoded = new Map<string, Buffer>();
  for (const [name, file] of files) {
    const deps = new Set<string>();
    const use = (type: string | undefined): void => {
      const from = type === undefined ? undefined : owner.get(type);
      if (from !== undefined && from !== name) deps.add(from);
    };
    const prefix = file.package === undefined || file.package === '' ? '' : `.${file.package}`;
    walkMessages(prefix, file.messageType, (fqn, m) => {
      // protobufjs also lists the extensions of a message (`.google.api.http` on MethodOptions) as
      // its own fields, under names no descriptor may have; the extending file declares them.
      if (m.field !== undefined) m.field = m.field.filter((f) => !(f.name ?? '').startsWith('.'));
      const type = root.lookup(fqn.slice(1));
      for (const field of [...(m.field ?? []), ...(m.extension ?? [])]) {
        field.typeName = qualify(field.typeName, fqn);
        field.extendee = qualify(field.extendee, fqn);
        use(field.typeName);
        use(field.extendee);
        const jsonName =
          type instanceof protobuf.Type ? type.fields[field.name ?? '']?.options?.json_name : undefined;
        if (typeof jsonName === 'string') field.jsonName = jsonName;
      }
    });
    for (const ext of file.extension ?? []) {
      ext.typeName = qualify(ext.typeName, prefix);
      ext.extendee = qualify(ext.extendee, prefix);
      use(ext.typeName);
      use(ext.extendee);
    }
    for (const service of file.service ?? []) {
      for (const method of service.method ?? []) {
        method.inputType = qualify(method.inputType, prefix);
        method.outputType = qualify(method.outputType, prefix);
        use(method.inputType);
        use(method.outputType);
      }
    }
    file.dependency = [...deps].sort();
    encoded.set(name, Buffer.from(FileDescriptorProto.encode(FileDescriptorProto.fromObject(file)).finish()));
  }
  const out: PackageDefinition = {};
  for (const [key, entry] of Object.entries(pkg)) {
    const protos = (entry as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos;
    if (protos === undefined) {
      out[key] = entry;
      continue;
    }
    const names = protos.map(
      (bytes) => (FileDescriptorProto.decode(bytes) as unknown as FileProto).name ?? '',
    );
    out[key] = Object.assign({}, entry, {
      fileDescriptorProtos: names.map((n, i) => encoded.get(n) ?? protos[i]!),
    }) as typeof entry;
  }
  return out;
}
