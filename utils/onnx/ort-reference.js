#!/usr/bin/env node
// ===- ort-reference.js - An ONNX model's reference outputs (onnxruntime) ===//
//
// Part of LWP, a lightweight loop-level profiler for MLIR and LLVM.
//
// ===----------------------------------------------------------------------=== //
//
// Runs an ONNX model once with onnxruntime-node (CPU) on inputs read from
// .npy files and writes every graph output to a .npy file: the reference of
// `lwp-run --compare-onnxruntime` (docs/user-guide.md, "ONNX models").
//
//   node ort-reference.js MODEL.onnx --input NAME=FILE.npy... \
//       [--output NAME=FILE.npy]... [--out-dir DIR]
//
// Every graph input needs an --input. An output without --output goes to
// DIR/NAME.npy (NAME with every character outside [A-Za-z0-9._-] replaced by
// '_'), DIR by default the current folder. Prints one line per output (name,
// dtype, shape, file). onnxruntime-node is found through NODE_PATH
// (utils/setup.sh installs it in /opt/lwp-node/node_modules). An error is one
// line, "ort-reference: error: ...", and exit status 1.
//
// .npy files: version 1.0 written (2.0 and 3.0 read), little-endian, C order;
// dtypes float32, float64, float16, int64, int32, int16, int8, uint64,
// uint32, uint16, uint8 and bool (one byte). The same format as lwp-run's
// and the generated driver's writers, byte for byte.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write('ort-reference: error: ' + message + '\n');
  process.exit(1);
}

// numpy dtype name -> [npy descr, element size, typed array, ORT type].
const DTYPES = {
  float32: ['<f4', 4, Float32Array, 'float32'],
  float64: ['<f8', 8, Float64Array, 'float64'],
  float16: ['<f2', 2, Uint16Array, 'float16'],
  int64: ['<i8', 8, BigInt64Array, 'int64'],
  int32: ['<i4', 4, Int32Array, 'int32'],
  int16: ['<i2', 2, Int16Array, 'int16'],
  int8: ['|i1', 1, Int8Array, 'int8'],
  uint64: ['<u8', 8, BigUint64Array, 'uint64'],
  uint32: ['<u4', 4, Uint32Array, 'uint32'],
  uint16: ['<u2', 2, Uint16Array, 'uint16'],
  uint8: ['|u1', 1, Uint8Array, 'uint8'],
  bool: ['|b1', 1, Uint8Array, 'bool'],
};

function dtypeOfDescr(descr) {
  // One-byte types are written with '|'; '<' and '=' are read as well.
  const norm = descr.length === 3 && '<=|'.includes(descr[0]) ? descr.slice(1)
                                                               : null;
  for (const [name, info] of Object.entries(DTYPES))
    if (norm !== null && info[0].slice(1) === norm) return name;
  return null;
}

function sanitize(name) { return name.replace(/[^A-Za-z0-9._-]/g, '_'); }

function readNpy(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    fail('cannot read ' + file + ': ' + e.message);
  }
  const bad = (why) => fail(file + ': not a .npy file we read (' + why + ')');
  if (buf.length < 10 || buf[0] !== 0x93 ||
      buf.toString('latin1', 1, 6) !== 'NUMPY')
    bad('no \\x93NUMPY magic');
  const major = buf[6];
  let headerLen, start;
  if (major === 1) {
    headerLen = buf.readUInt16LE(8);
    start = 10;
  } else if (major === 2 || major === 3) {
    if (buf.length < 12) bad('truncated header');
    headerLen = buf.readUInt32LE(8);
    start = 12;
  } else {
    bad('version ' + major);
  }
  if (start + headerLen > buf.length) bad('truncated header');
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
  const order = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape) bad('header ' + JSON.stringify(header));
  const dtype = dtypeOfDescr(descr[1]);
  if (!dtype) bad("dtype '" + descr[1] + "'");
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s)
                   .map((s) => Number(s));
  if (dims.some((d) => !Number.isInteger(d) || d < 0)) bad('shape');
  if (order[1] === 'True' && dims.filter((d) => d !== 1).length > 1)
    bad('Fortran order');
  const count = dims.reduce((a, b) => a * b, 1);
  const size = DTYPES[dtype][1];
  const offset = start + headerLen;
  if (buf.length - offset !== count * size)
    bad('holds ' + (buf.length - offset) + ' data bytes, its shape [' + dims +
        '] takes ' + count * size);
  // A copy: the typed array needs its own, aligned buffer.
  const bytes = new Uint8Array(count * size);
  buf.copy(bytes, 0, offset);
  return {dtype, dims, data: new DTYPES[dtype][2](bytes.buffer)};
}

function npyHeader(dtype, dims) {
  const shape = dims.length === 1 ? '(' + dims[0] + ',)'
                                  : '(' + dims.join(', ') + ')';
  let header = "{'descr': '" + DTYPES[dtype][0] +
               "', 'fortran_order': False, 'shape': " + shape + ', }';
  // Magic, version and length take 10 bytes; the header ends in '\n' and
  // pads the whole to a multiple of 64.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header += ' '.repeat(total - 10 - header.length - 1) + '\n';
  const out = Buffer.alloc(10);
  out[0] = 0x93;
  out.write('NUMPY', 1, 'latin1');
  out[6] = 1;
  out[7] = 0;
  out.writeUInt16LE(header.length, 8);
  return Buffer.concat([out, Buffer.from(header, 'latin1')]);
}

function writeNpy(file, dtype, dims, data) {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.writeFileSync(file, Buffer.concat([npyHeader(dtype, dims), bytes]));
  } catch (e) {
    fail('cannot write ' + file + ': ' + e.message);
  }
}

function parseArgs(argv) {
  const args = {model: null, inputs: new Map(), outputs: new Map(), outDir: '.'};
  const pair = (flag, value, into) => {
    const eq = value === undefined ? -1 : value.indexOf('=');
    if (eq <= 0) fail(flag + ' takes NAME=FILE, not ' + JSON.stringify(value));
    into.set(value.slice(0, eq), value.slice(eq + 1));
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--input') pair(a, argv[++i], args.inputs);
    else if (a === '--output') pair(a, argv[++i], args.outputs);
    else if (a === '--out-dir') {
      if (argv[i + 1] === undefined) fail('--out-dir takes a folder');
      args.outDir = argv[++i];
    } else if (a.startsWith('-')) fail('unknown option ' + a);
    else if (args.model === null) args.model = a;
    else fail('more than one model: ' + args.model + ', ' + a);
  }
  if (args.model === null)
    fail('usage: ort-reference.js MODEL.onnx --input NAME=FILE.npy... ' +
         '[--output NAME=FILE.npy]... [--out-dir DIR]');
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail('cannot load onnxruntime-node (' + e.message.split('\n')[0] +
         '): run utils/setup.sh, which installs it in /opt/lwp-node, and ' +
         'set NODE_PATH=/opt/lwp-node/node_modules');
  }
  let session;
  try {
    // One thread: the same sums in the same order on every run.
    session = await ort.InferenceSession.create(args.model, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    });
  } catch (e) {
    fail('onnxruntime cannot load ' + args.model + ': ' +
         String(e.message).split('\n')[0]);
  }
  for (const name of args.inputs.keys())
    if (!session.inputNames.includes(name))
      fail('--input ' + name + ': the model has no input of that name (its ' +
           'inputs: ' + session.inputNames.join(', ') + ')');
  for (const name of args.outputs.keys())
    if (!session.outputNames.includes(name))
      fail('--output ' + name + ': the model has no output of that name (its ' +
           'outputs: ' + session.outputNames.join(', ') + ')');
  const feeds = {};
  for (const name of session.inputNames) {
    if (!args.inputs.has(name)) fail('no --input for the model\'s input ' + name);
    const t = readNpy(args.inputs.get(name));
    feeds[name] = new ort.Tensor(DTYPES[t.dtype][3], t.data, t.dims);
  }
  let results;
  try {
    results = await session.run(feeds);
  } catch (e) {
    fail('onnxruntime failed to run ' + args.model + ': ' +
         String(e.message).split('\n')[0]);
  }
  for (const name of session.outputNames) {
    const t = results[name];
    const dtype = Object.keys(DTYPES).find((d) => DTYPES[d][3] === t.type);
    if (!dtype) fail('output ' + name + ' has type ' + t.type + ', not written');
    const file = args.outputs.has(name)
                     ? args.outputs.get(name)
                     : path.join(args.outDir, sanitize(name) + '.npy');
    writeNpy(file, dtype, t.dims.map(Number), t.data);
    process.stdout.write(name + ': ' + dtype + ' [' + t.dims.join(',') +
                         '] -> ' + file + '\n');
  }
}

main().catch((e) => fail(String(e && e.stack || e).split('\n')[0]));
