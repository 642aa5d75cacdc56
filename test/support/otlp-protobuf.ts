/**
 * Reads an OTLP/HTTP protobuf export (`ExportTraceServiceRequest`, opentelemetry-proto's trace/v1 and common/v1) into
 * the shape of its JSON encoding, as far as the tests read it: resources' and spans' attributes, ids (as hex), name,
 * kind. Fields it does not know are skipped.
 */

/** JSON-encoding-like objects: `{ resourceSpans: [{ resource: { attributes }, scopeSpans: [{ spans }] }] }`. */
export interface DecodedExport {
  resourceSpans: {
    resource: { attributes: DecodedAttribute[] };
    scopeSpans: { spans: DecodedSpan[] }[];
  }[];
}
export interface DecodedAttribute {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: number; doubleValue?: number };
}
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: DecodedAttribute[];
}

const LENGTH_DELIMITED = 2;

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  atEnd() {
    return this.pos >= this.bytes.length;
  }
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
  /**
   * Each field of the message, from its start: its number, its wire type, and a reader of its bytes when
   * length-delimited (a varint's value; a fixed-size one's offset).
   */
  *fields(): Generator<{ field: number; wire: number; value: number | Reader }> {
    this.pos = 0;
    while (!this.atEnd()) {
      const tag = this.varint();
      const wire = tag & 7;
      const field = Math.floor(tag / 8);
      if (wire === 0) yield { field, wire, value: this.varint() };
      else if (wire === 1 || wire === 5) {
        const size = wire === 1 ? 8 : 4;
        yield { field, wire, value: this.pos };
        this.pos += size;
      } else if (wire === LENGTH_DELIMITED) {
        const length = this.varint();
        const sub = new Reader(this.bytes.subarray(this.pos, this.pos + length));
        this.pos += length;
        yield { field, wire, value: sub };
      } else throw new Error(`unexpected protobuf wire type ${wire}`);
    }
  }
  text() {
    return new TextDecoder().decode(this.bytes);
  }
  hex() {
    return Buffer.from(this.bytes).toString('hex');
  }
}

function anyValue(reader: Reader): DecodedAttribute['value'] {
  for (const { field, value } of reader.fields()) {
    if (field === 1 && value instanceof Reader) return { stringValue: value.text() };
    if (field === 2 && typeof value === 'number') return { boolValue: value !== 0 };
    if (field === 3 && typeof value === 'number') return { intValue: value };
    if (field === 4 && typeof value === 'number') return { doubleValue: Buffer.from(reader.bytes).readDoubleLE(value) };
  }
  return {};
}

function keyValue(reader: Reader): DecodedAttribute {
  const attribute: DecodedAttribute = { key: '', value: {} };
  for (const { field, value } of reader.fields()) {
    if (!(value instanceof Reader)) continue;
    if (field === 1) attribute.key = value.text();
    else if (field === 2) attribute.value = anyValue(value);
  }
  return attribute;
}

function span(reader: Reader): DecodedSpan {
  const decoded: DecodedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, attributes: [] };
  for (const { field, value } of reader.fields()) {
    if (field === 6 && typeof value === 'number') decoded.kind = value;
    if (!(value instanceof Reader)) continue;
    if (field === 1) decoded.traceId = value.hex();
    else if (field === 2) decoded.spanId = value.hex();
    else if (field === 4) decoded.parentSpanId = value.hex();
    else if (field === 5) decoded.name = value.text();
    else if (field === 9) decoded.attributes.push(keyValue(value));
  }
  return decoded;
}

const messagesIn = (reader: Reader, number: number) =>
  [...reader.fields()].flatMap(({ field, value }) => (field === number && value instanceof Reader ? [value] : []));

export function decodeTraceExport(body: Uint8Array): DecodedExport {
  return {
    resourceSpans: messagesIn(new Reader(body), 1).map((resourceSpans) => ({
      resource: {
        attributes: messagesIn(resourceSpans, 1).flatMap((resource) => messagesIn(resource, 1).map(keyValue)),
      },
      scopeSpans: messagesIn(resourceSpans, 2).map((scopeSpans) => ({ spans: messagesIn(scopeSpans, 2).map(span) })),
    })),
  };
}

/** How many spans an export holds, without reading them. */
export function countSpans(body: Uint8Array): number {
  let spans = 0;
  for (const resourceSpans of messagesIn(new Reader(body), 1))
    for (const scopeSpans of messagesIn(resourceSpans, 2)) spans += messagesIn(scopeSpans, 2).length;
  return spans;
}
