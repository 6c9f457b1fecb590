// ONNX SequenceProto / OptionalProto test data (onnx/onnx-ml.proto) decoded
// into what a session takes and gives for a sequence or optional port: an
// array of tensors, or null / a tensor / an array. onnx-proto's schema has
// neither message, so the few fields are read here with protobufjs' Reader.
import protobuf from 'protobufjs';
import { readTensor } from '../../compiler/onnx-reader.js';

const TENSOR = 1, SEQUENCE = 3; // the elem_type codes of both messages

/** A SequenceProto's bytes -> [{ dtype code, dims, bytes }] (tensor elements only). */
export function readSequence(bytes) {
  const r = protobuf.Reader.create(bytes), items = [];
  let elem = TENSOR;
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 2: elem = r.int32(); break;
      case 3: items.push(readTensor(r.bytes())); break;
      case 4: case 5: case 6: case 7: throw new Error('a sequence of sparse tensors, sequences, maps or optionals is not supported');
      default: r.skipType(tag & 7);
    }
  }
  if (elem !== TENSOR && items.length) throw new Error(`sequence elem_type ${elem} is not supported`);
  return items;
}

/** An OptionalProto's bytes -> null, { tensor }, or { sequence: [...] }. */
export function readOptional(bytes) {
  const r = protobuf.Reader.create(bytes);
  let out = null;
  while (r.pos < r.len) {
    const tag = r.uint32();
    switch (tag >>> 3) {
      case 3: out = { tensor: readTensor(r.bytes()) }; break;
      case 5: out = { sequence: readSequence(r.bytes()) }; break;
      case 4: case 6: case 7: throw new Error('an optional of a sparse tensor, map or optional is not supported');
      default: r.skipType(tag & 7);
    }
  }
  return out;
}

export { SEQUENCE };
