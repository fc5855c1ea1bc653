"""Mutation testing on demand (mutmut): the score per module and every survivor, the equivalent explained.

Mutation testing on demand: mutmut plants one small bug at a time in the modules the app's claims
rest on (pyproject.toml, [tool.mutmut]) and runs their fast unit tests; a mutant no test notices
"survives". Prints the score per module and every survivor, each marked when
qa/mutation_equivalent.md explains it as equivalent (no test can tell it from the original).

    python -m qa mutation                 # run (2 workers; minutes), then report
    python -m qa mutation --report        # report the last run only
    python -m qa mutation --only 'attention.params.selection.*'   # one module while iterating
    python -m qa mutation --diff          # with each survivor's diff

(`python -m qa.mutation ...` is the same.)

Not part of CI: it takes minutes and mutmut's results are a guide, not a gate. mutmut works in
./mutants/ (ignored by git, pytest and ruff); delete it to start afresh.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bench.cli import bench_parser

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT = ROOT / "qa" / "mutation_equivalent.md"
KILLED = {1: "killed", 3: "killed", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          -11: "segfault", -9: "segfault", 37: "type check"}
# One thread for torch, BLAS and the tokenizers: mutmut forks a child per mutant from a process that has
# already run the tests, and a thread pool started before a fork can hang the child (then counted a
# "timeout", i.e. killed, whatever the tests would have said).
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
              "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}
STATUS = {0: "survived", 5: "no tests", 33: "no tests", None: "not checked", 34: "skipped"}


def status(exit_code: int | None) -> str:
    return KILLED.get(exit_code) or STATUS.get(exit_code, "suspicious")


def equivalent_names() -> dict[str, str]:
    """Mutant name -> why it is equivalent, from the table's rows: | `name` | why |."""
    if not EQUIVALENT.exists():
        return {}
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*(.+?)\s*\|\s*$", EQUIVALENT.read_text(), flags=re.M)
    return dict(rows)


def results() -> dict[str, dict[str, str]]:
    """Module path -> {mutant name: status}, read from mutmut's .meta files."""
    out: dict[str, dict[str, str]] = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        module = meta.relative_to(ROOT / "mutants").as_posix()[: -len(".meta")]
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        out[module] = {name: status(code) for name, code in codes.items()}
    return out


def diff(name: str) -> str:
    shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=ROOT, capture_output=True, text=True)
    lines = [ln for ln in shown.stdout.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    return "\n".join("        " + ln for ln in lines)


def report(show_diff: bool) -> int:
    by_module = results()
    if not by_module:
        print("no results: run without --report first")
        return 1
    equivalent = equivalent_names()
    print(f"{'module':<34}{'mutants':>8}{'killed':>8}{'survived':>9}{'equiv.':>7}{'score':>8}{'adjusted':>10}")
    survivors: list[tuple[str, str]] = []
    for module, statuses in by_module.items():
        counts = Counter("killed" if s in KILLED.values() else s for s in statuses.values())
        alive = [n for n, s in statuses.items() if s in ("survived", "no tests", "suspicious")]
        checked = counts["killed"] + len(alive)
        equiv = sum(n in equivalent for n in alive)
        score = counts["killed"] / checked if checked else float("nan")
        adjusted = counts["killed"] / (checked - equiv) if checked - equiv else float("nan")
        print(f"{module:<34}{len(statuses):>8}{counts['killed']:>8}{len(alive):>9}{equiv:>7}{score:>8.1%}"
              f"{adjusted:>10.1%}")
        survivors += [(n, statuses[n]) for n in alive]
    unchecked = sum(s == "not checked" for st in by_module.values() for s in st.values())
    if unchecked:
        print(f"({unchecked} mutants not checked yet: the run was cut short or filtered)")
    print("score = killed / checked; adjusted leaves out the survivors qa/mutation_equivalent.md explains")
    print(f"\n{len(survivors)} survivors:")
    for name, how in survivors:
        why = equivalent.get(name)
        print(f"  {name} ({how})" + (f"  equivalent: {why}" if why else "  NOT EXPLAINED"))
        if show_diff:
            print(diff(name))
    stale = sorted(n for n in equivalent if not any(n in st and n in dict(survivors) for st in by_module.values()))
    if stale:
        print("\nexplained as equivalent but no longer surviving (renumbered or killed): update the table")
        print("\n".join(f"  {n}" for n in stale))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__, results=False)
    parser.add_argument("--report", action="store_true", help="only report the last run")
    parser.add_argument("--only", nargs="*", default=[], help="mutant name patterns, e.g. 'attention.core.*'")
    parser.add_argument("--workers", type=int, default=2, help="mutmut's parallel children (CPU is shared)")
    parser.add_argument("--diff", action="store_true", help="print each survivor's diff")
    args = parser.parse_args(argv)
    if not args.report:
        cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.workers), *args.only]
        print("running mutmut (minutes; progress hidden) ...", flush=True)
        done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, env={**os.environ, **ONE_THREAD})
        if done.returncode:
            print(f"mutmut exited {done.returncode}: see `{' '.join(cmd[1:])}`")
            return done.returncode
    return report(args.diff)


if __name__ == "__main__":
    sys.exit(main())
