#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/conformance/run/benchdnn_scrape.py — the kind of script people keep
# next to benchdnn, written from benchdnn's documentation (knobs_perf_report.md,
# benchdnn_general_info.md) and its output, not from llga-run: it reads
# "Output template:", the perf lines the template produces, the result lines
# "<n>:<STATE> ... __REPRO: <repro>", the summary "tests:... passed:..." and
# "total perf: min(ms):... avg(ms):...", and prints a table. Exits 1 when
# something it relies on is missing or inconsistent.
#   benchdnn_scrape.py [--expect-perf N] [--expect-tests N] < output
import re
import sys

STATES = ('PASSED', 'SKIPPED', 'MISTRUSTED', 'UNIMPLEMENTED',
          'INVALID_ARGUMENTS', 'FAILED', 'LISTED', 'EXECUTED')


def die(msg):
    sys.stderr.write('scrape: ' + msg + '\n')
    sys.exit(1)


def main(argv):
    expect_perf = expect_tests = None
    if '--expect-perf' in argv:
        expect_perf = int(argv[argv.index('--expect-perf') + 1])
    if '--expect-tests' in argv:
        expect_tests = int(argv[argv.index('--expect-tests') + 1])
    template = None
    results, perf, summary, total = [], [], None, None
    for line in sys.stdin.read().splitlines():
        m = re.match(r'^Output template: (.*)$', line)
        if m:
            template = m.group(1)
            continue
        m = re.match(r'^(\d+):([A-Z_]+)(?: \(([^)]*)\))? __REPRO: (.*)$', line)
        if m:
            if m.group(2) not in STATES:
                die('unknown state ' + m.group(2))
            results.append((int(m.group(1)), m.group(2), m.group(4)))
            continue
        m = re.match(r'^tests:(\d+) passed:(\d+) skipped:(\d+) '
                     r'mistrusted:(\d+) unimplemented:(\d+) '
                     r'invalid_arguments:(\d+) failed:(\d+) listed:(\d+)$', line)
        if m:
            summary = [int(x) for x in m.groups()]
            continue
        m = re.match(r'^total perf: min\(ms\):(\S+) avg\(ms\):(\S+)$', line)
        if m:
            total = (float(m.group(1)), float(m.group(2)))
            continue
        if template is not None:
            # A perf line: the template's literal text with values in
            # place of its %items%.
            pat = re.escape(template)
            pat = re.sub(r'%[^%]*%', '(.*?)', pat.replace('\\%', '%'))
            m = re.match('^' + pat + '$', line)
            if m:
                names = re.findall(r'%([^%]*)%', template)
                perf.append(dict(zip(names, m.groups())))
    if summary is None:
        die('no summary line')
    tests, passed, skipped, mistrusted, unimpl, invalid, failed, listed = summary
    if len(results) != tests:
        die('%d result lines, summary says tests:%d' % (len(results), tests))
    if [r[0] for r in results] != list(range(tests)):
        die('result indices are not 0..tests-1')
    if sum(1 for r in results if r[1] == 'PASSED') != passed:
        die('PASSED lines do not match passed:%d' % passed)
    if expect_tests is not None and tests != expect_tests:
        die('expected %d tests, got %d' % (expect_tests, tests))
    if expect_perf is not None:
        if template is None:
            die('no "Output template:" line')
        if len(perf) != expect_perf:
            die('expected %d perf lines, got %d' % (expect_perf, len(perf)))
        mins = []
        for p in perf:
            for k, v in p.items():
                if k.endswith('time') or k.endswith('flops'):
                    try:
                        float(v)
                    except ValueError:
                        die('%s is not a number: %s' % (k, v))
            if '-time' in p:
                mins.append(float(p['-time']))
        if total is None:
            die('no "total perf:" line')
        if mins and abs(sum(mins) - total[0]) > 1e-3 * max(1.0, total[0]):
            die('total perf min %g is not the sum of the perf lines %g'
                % (total[0], sum(mins)))
    print('%-6s %-10s %s' % ('idx', 'state', 'repro'))
    for r in results:
        print('%-6d %-10s %s' % r)
    for p in perf:
        print('perf: ' + ' '.join('%s=%s' % kv for kv in p.items()))
    print('summary: tests=%d passed=%d failed=%d' % (tests, passed, failed))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
