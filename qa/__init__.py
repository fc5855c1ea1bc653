"""Quality checks run on demand, never in CI and never a gate: they print what they find for a person to read.

    python -m qa --list                     every tool
    python -m qa mutation                   mutation testing (mutmut; minutes): score per module, survivors
    python -m qa a11y_audit                 axe-core on every page in English and Chinese
    python -m qa screens OUT_DIR            screenshots of the Lesson, Learning and the head pages

Each is also `python -m qa.NAME`. They are found and run as the benchmarks are (bench/cli.py: a module here
with a top-level main(argv) is a tool; its docstring's first line is its summary).
"""
