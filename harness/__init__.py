"""What the tests and the benchmarks share (no app code): starting the real app (app_server, deploy), driving
Debian's Chromium and reading the page (head_geometry, plot_geometry, text_boxes, axe, frames: bytes received,
page_timing: the page's own clock, settle: the page settled as a person sees it), processes' memory and CPU
(proc_stats; peak: the peak RSS of a fresh process), and inputs (sentences, texts, random_sites,
tiny_families, slow_trace, greedy: transformers' own continuation, trivial_app: the floor of any app).

Not installed with the package: the tests and `python -m bench` run from the repository's root, which puts
harness/ on the path."""
