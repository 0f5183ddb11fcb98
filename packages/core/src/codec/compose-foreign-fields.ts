import type { ForeignField, ForeignFields } from './foreign-fields';
import type { ProtocolDescriptor } from './protocol-descriptor';

/** What the composition reads of a descriptor. */
export type ForeignFieldsSource = Pick<ProtocolDescriptor, 'generationPath' | 'signatureFields' | 'foreignFieldHints'>;

/**
 * For each of a gateway's protocols (in the order given), the foreign-field refusal of its endpoint,
 * composed from the others' descriptors: each of their signature fields that it does not declare
 * itself, with the generation paths of every protocol that declares it and this protocol's hint for
 * what the field carries (the first declaring protocol's words, when they differ). Fields keep the
 * order of the protocols, then of their declarations, so the first a body carries is the one named.
 */
export function composeForeignFields(descriptors: readonly ForeignFieldsSource[]): ForeignFields[] {
  return descriptors.map(descriptor => foreignFieldsOf(descriptor, descriptors));
}

function foreignFieldsOf(descriptor: ForeignFieldsSource, descriptors: readonly ForeignFieldsSource[]): ForeignFields {
  const own = descriptor.signatureFields ?? {};
  const hints = descriptor.foreignFieldHints ?? {};
  const fields = new Map<string, ForeignField & { paths: string[] }>();
  for (const other of descriptors) {
    if (other === descriptor) continue;
    for (const [field, carries] of Object.entries(other.signatureFields ?? {})) {
      if (Object.hasOwn(own, field)) continue;
      const earlier = fields.get(field);
      if (earlier) {
        earlier.paths.push(other.generationPath);
        continue;
      }
      const instead = Object.hasOwn(hints, carries) ? hints[carries] : undefined;
      fields.set(field, { paths: [other.generationPath], ...(instead !== undefined && { instead }) });
    }
  }
  return { path: descriptor.generationPath, fields };
}
