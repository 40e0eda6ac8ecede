#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/conformance/verbose/compare_shapes.py — for two verbose outputs
# (oneDNN's sample, llga's run), checks that every graph line type present in
# both has the same number of fields, and that the template lines are equal
# field for field.  compare_shapes.py ONEDNN_FILE LLGA_FILE
import sys


def shapes(path):
    out = {}
    for line in open(path):
        f = line.rstrip('\n').split(',')
        if len(f) < 4 or f[0] != 'onednn_verbose':
            continue
        if f[2] == 'graph' and f[3] == 'info' and f[4].startswith('template:'):
            out['template'] = ','.join(f[4:])
            continue
        if f[2] != 'graph' or f[3] == 'info':
            continue
        kind = f[3].split(':')[0]
        out.setdefault(kind, set()).add(len(f))
    return out


a, b = shapes(sys.argv[1]), shapes(sys.argv[2])
if a.get('template') != b.get('template'):
    sys.exit('template lines differ:\n  %s\n  %s' % (a.get('template'), b.get('template')))
common = [k for k in a if k != 'template' and k in b]
if not common:
    sys.exit('no graph line type in common')
for k in common:
    if a[k] != b[k]:
        sys.exit('%s lines: oneDNN has %s fields, llga %s' % (k, sorted(a[k]), sorted(b[k])))
print('same field counts for: ' + ', '.join(sorted(common)))
