"""Benchmarks: each prints figures (times as ratios measured in the same run, memory as the peak RSS of a
fresh process) and never asserts a wall-clock threshold. One tool:

    python -m bench --list                 every benchmark, with what it measures
    python -m bench NAME [options]         run one; python -m bench NAME --help: its options
    python -m bench all                    the app's headline figures in one table (bench/all.py says which)

Adding a benchmark: write bench/NAME.py (or a package bench/NAME/ whose __init__.py has the main) with
a docstring whose first line says what it measures, and

    def main(argv: list[str] | None = None) -> int:
        ap = bench_parser(__doc__)          # from bench.cli: --help shows the docstring; --json PATH
        ...
        args = ap.parse_args(argv)
        return 0

    if __name__ == "__main__":
        sys.exit(main())                    # python -m bench.NAME works too

Nothing to register: `python -m bench` finds every module here with a top-level main by reading the files
(bench/cli.py), and tests/test_bench_cli.py checks that `--list` names it and that its --help runs. To put
it in `python -m bench all`, add one line to PLAN in bench/all.py. Keep heavy imports (torch, transformers,
Playwright) inside functions where you can: --help and --list then stay instant.

What benchmarks share with the tests lives in harness/ (the app's server, the page's clock, the settled
page, peak memory in a fresh process, texts and sentences); the QA tools (mutation testing, screenshots,
the accessibility audit) are in qa/, run the same way (`python -m qa NAME`). Neither folder is installed
with the package: run them from the repository's root.
"""
