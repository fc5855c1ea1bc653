"""What the tests and the benchmarks share: starting the real app, driving Debian's Chromium (no app code)."""
