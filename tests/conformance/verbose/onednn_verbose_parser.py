#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/conformance/verbose/onednn_verbose_parser.py — a parser for oneDNN
# v3.9 verbose output written from oneDNN's documentation
# (doc/performance_considerations/verbose.md, "Decrypting the Output"), not
# from llga: it reads the header and the template lines, then checks every
# graph line against the template (field count and order, engine kind,
# partition id, fpmath field, logical tensor syntax, time). Lines it does
# not know (info lines, other API kinds) are skipped, as oneDNN's own
# tools do. Reads stdin; exits 1 with a message on the first bad line.
#   onednn_verbose_parser.py [--timestamp] [--need OPERATION ...]
import re
import sys

LT = re.compile(r'^(in|out)\d+_'                  # port
                r'(f32|bf16|f16|s8|u8|s32|s4|u4|boolean|f8_e5m2|f8_e4m3|f64|undef)'
                r':\d+'                             # logical tensor id
                r':(strided|opaque|any|undef)'      # layout type
                r':(undef|variable|constant)'       # property
                r':(\d+(x\d+)*)?'                   # dims
                r':(any|\d+|\d+(s\d+)*)?$')         # strides / layout id


def fail(msg, line):
    sys.stderr.write('verbose parser: %s\n  line: %s\n' % (msg, line))
    sys.exit(1)


def main(argv):
    want_stamp = '--timestamp' in argv
    need = set()
    if '--need' in argv:
        need = set(argv[argv.index('--need') + 1:])
    templates = {}
    seen = {}
    header = {'version': False, 'cpu_runtime': False, 'isa': False,
              'gpu_runtime': False, 'backend': False}
    for raw in sys.stdin:
        line = raw.rstrip('\n')
        if not line.startswith('onednn_verbose,'):
            continue
        f = line.split(',')
        if f[1] not in ('v0', 'v1'):
            fail('no verbose version marker', line)
        rest = f[2:]
        if rest[0] == 'info':
            body = ','.join(rest[1:])
            if re.match(r'^oneDNN v\d+\.\d+\.\d+ \(commit \S+\)$', body):
                header['version'] = True
            if re.match(r'^cpu,runtime:\S+,nthr:\d+$', body):
                header['cpu_runtime'] = True
            if body.startswith('cpu,isa:'):
                header['isa'] = True
            if body.startswith('gpu,runtime:'):
                header['gpu_runtime'] = True
            if re.match(r'^graph,backend,\d+:\S+$', body):
                header['backend'] = True
            continue
        if len(rest) >= 3 and rest[1] == 'info' and rest[2].startswith('template:'):
            fields = [rest[2][len('template:'):]] + rest[3:]
            templates[rest[0]] = fields
            if want_stamp != (fields[0] == 'timestamp'):
                fail('template timestamp field does not match the setting',
                     line)
            continue
        stamp = None
        if want_stamp:
            stamp, rest = rest[0], rest[1:]
            try:
                float(stamp)
            except ValueError:
                fail('timestamp is not a number', line)
        api = rest[0]
        if api not in ('primitive', 'graph', 'common'):
            fail('unknown API kind ' + api, line)
        if len(rest) < 2:
            fail('no operation field', line)
        op = rest[1]
        if op == 'info' or api != 'graph':
            continue  # informational; parsers skip these
        if op.startswith('create:dispatch') or op.startswith('create:check'):
            # component, message, source location
            if len(rest) != 5 or not re.match(r'^\S+:\d+$', rest[4]):
                fail('dispatch/check line is not component,message,file:line',
                     line)
            seen[op] = seen.get(op, 0) + 1
            continue
        if not (op == 'exec' or re.match(
                r'^(compile|create):(cache_hit|cache_miss|kernel_cache_hit|'
                r'persistent_cache_hit|nested_cache_hit)$', op)):
            fail('unknown graph operation ' + op, line)
        t = templates.get('graph')
        if t is None:
            fail('graph line before the graph template line', line)
        values = ([stamp] if want_stamp else []) + rest[1:]
        if len(values) != len(t):
            fail('%d fields, the template has %d' % (len(values), len(t)), line)
        rec = dict(zip(t, values))
        if rec['engine'] not in ('cpu', 'gpu'):
            fail('engine kind ' + rec['engine'], line)
        if not rec['partition_id'].isdigit():
            fail('partition id ' + rec['partition_id'], line)
        if not re.match(r'^[a-z0-9_]+$', rec['partition_kind']):
            fail('partition kind ' + rec['partition_kind'], line)
        if not rec['op_names']:
            fail('no op names', line)
        fmts = rec['data_formats']
        if fmts and not re.match(r'^(data:[^ ]* )?(filter:[^ ]* )?$', fmts):
            fail('data formats ' + fmts, line)
        for lt in rec['logical_tensors'].split(' '):
            if lt and not LT.match(lt):
                fail('logical tensor ' + lt, line)
        if not re.match(r'^fpm:(strict|bf16|f16|any|tf32)(:true)?$',
                        rec['fpmath_mode']):
            fail('fpmath mode ' + rec['fpmath_mode'], line)
        if not rec['backend']:
            fail('no backend', line)
        try:
            float(rec['exec_time'])
        except ValueError:
            fail('time is not a number: ' + rec['exec_time'], line)
        kind = op.split(':')[0]
        seen[kind] = seen.get(kind, 0) + 1
    for k, v in header.items():
        if not v:
            fail('header line missing: ' + k, '')
    if 'graph' not in templates or 'primitive' not in templates:
        fail('template lines missing', '')
    for n in need:
        if n not in seen:
            fail('no %s line' % n, '')
    print('parsed: ' + ', '.join('%s=%d' % kv for kv in sorted(seen.items())))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
