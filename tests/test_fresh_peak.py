"""harness/peak.py: a benchmark part run in a fresh process reports that process's own peak RSS (VmHWM),
its other output passes through, and a child that fails says why instead of reporting nothing."""

from __future__ import annotations

from harness.peak import ROOT, in_fresh_process

PROBE = '''
import sys

from harness.peak import is_child, report

child, argv = is_child(None)
assert child, "run as the fresh child"
if argv[0] == "fail":
    raise SystemExit("the part failed")
held = b"x" * (int(argv[0]) * 2**20)  # touched: every page resident
print("a line of its own")
report({"mib_asked": int(argv[0])})
'''


def run_probe(tmp_path, *args: str) -> dict:
    (tmp_path / "peak_probe.py").write_text(PROBE)
    return in_fresh_process("peak_probe", list(args), env={"PYTHONPATH": f"{tmp_path}:{ROOT}"}, timeout=60)


def test_the_peak_is_the_fresh_process_own(tmp_path, capsys):
    small = run_probe(tmp_path, "0")
    large = run_probe(tmp_path, "200")
    assert large["mib_asked"] == 200 and small["mib_asked"] == 0
    assert 190 <= large["peak_mib"] - small["peak_mib"] <= 260  # the 200 MiB it held, not the parent's memory
    assert small["peak_mib"] < 100  # a bare interpreter: nothing of this (pytest's) process counted
    assert capsys.readouterr().out.count("a line of its own") == 2


def test_a_failed_part_says_why(tmp_path):
    assert run_probe(tmp_path, "fail") == {"error": "the part failed"}
