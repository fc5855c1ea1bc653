"""The lanes (tests/lanes.py): the markers land where they should without anyone remembering them, and a
test that reads a model without the `model` marker fails in every lane."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lanes import (
    folder_mark,
    loads_model,
    module_marks,
    never_selected,
    opens_to_read,
    reads_weights,
    uses_model_fixture,
)

ROOT = Path(__file__).resolve().parents[1]
FAST = "not model and not browser and not deploy"


def test_folders_give_browser_and_deploy_and_nothing_else():
    assert folder_mark(("e2e", "test_explore_browser.py")) == "browser"
    assert folder_mark(("deploy", "test_replica_fault.py")) == "deploy"
    assert folder_mark(("analysis", "test_anatomy.py")) is None
    assert folder_mark(("test_e2e.py",)) is None  # a file's name is no folder


def test_a_fixture_that_loads_a_model_says_so_once():
    @loads_model
    def minilm():
        return None

    def plain():
        return None

    assert uses_model_fixture([plain, minilm]) and not uses_model_fixture([plain])


def test_weights_are_a_weights_file_or_a_model_folders_config(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"")
    (tmp_path / "vocab").mkdir()
    assert reads_weights(str(tmp_path / "config.json"))
    assert reads_weights(str(tmp_path / "vocab" / "model.pt"))
    assert not reads_weights(str(tmp_path / "vocab" / "config.json"))  # a config with no weights beside it
    assert not reads_weights(str(tmp_path / "tokenizer.json"))
    assert opens_to_read("r", 0) and not opens_to_read("w", 0) and not opens_to_read("r+", 0)


def test_a_files_own_marks_are_read_without_importing_it():
    assert module_marks("import pytest\n\npytestmark = pytest.mark.model  # all of it\n") == {"model"}
    assert module_marks("pytestmark = [pytest.mark.model, pytest.mark.timeout(5)]\n") == {"model"}
    assert module_marks("import pytest\n\n\n@pytest.mark.model\ndef test_x():\n    pass\n") == set()


def test_only_what_the_expression_can_never_select_is_left_unimported():
    assert never_selected(FAST, {"model"}) and never_selected(FAST, {"browser"})
    assert not never_selected(FAST, set()) and not never_selected("", {"model"})
    assert not never_selected("model", {"model"}) and not never_selected("browser or model", {"deploy"})
    assert not never_selected("not model or timeout", {"model"})  # a model test may carry another mark


TREE = {
    "tests/__init__.py": "",
    "tests/e2e/__init__.py": "",
    "tests/e2e/test_page.py": "open('imported e2e', 'w').close()\n\n\ndef test_in_chromium():\n    pass\n",
    "tests/test_heavy.py": "import pytest\n\nopen('imported heavy', 'w').close()\npytestmark = pytest.mark.model\n\n\n"
                           "def test_heavy():\n    pass\n",
    "tests/deploy/__init__.py": "",
    "tests/deploy/test_nginx.py": "def test_replicas():\n    pass\n",
    "tests/test_unit.py": '''
import pytest
from tests.lanes import loads_model


@pytest.fixture(scope="module")
@loads_model
def lm():
    return "a model"


@pytest.fixture
def uses_lm(lm):
    return lm


def _read(folder, *names):
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"{}")
    with open(folder / names[0], "rb") as f:
        f.read()


def test_direct(lm):
    pass


def test_through_another_fixture(uses_lm):
    pass


def test_plain():
    pass


def test_reads_a_checkpoint_unmarked(tmp_path):
    _read(tmp_path / "translator", "model.pt")


def test_reads_a_model_folder_unmarked(tmp_path):
    _read(tmp_path / "minilm", "config.json", "model.safetensors")


@pytest.mark.model
def test_reads_a_checkpoint_marked(tmp_path):
    _read(tmp_path / "translator", "model.pt")


def test_writes_a_checkpoint_and_reads_a_tokenizer(tmp_path):
    (tmp_path / "model.pt").write_bytes(b"")
    _read(tmp_path / "tok", "tokenizer.json")
''',
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A small test tree run with this repository's conftest.py, lanes.py and pytest.ini."""
    root = tmp_path_factory.mktemp("lanes")
    for name, text in TREE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    shutil.copy(ROOT / "tests" / "conftest.py", root / "tests" / "conftest.py")
    shutil.copy(ROOT / "tests" / "lanes.py", root / "tests" / "lanes.py")
    shutil.copy(ROOT / "pytest.ini", root / "pytest.ini")
    return root


def pytest_in(root: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest run in `root` with only the plugins pytest.ini needs (others installed here cost a second
    or two of start-up each time)."""
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    # pytest.ini asks for pytest-xdist's workers: its plugin is loaded, and -n 0 keeps this small tree in one process
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "pytest_timeout", "-p", "xdist.plugin", "-n", "0",
                           "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=root, env=env, timeout=300)


def outcomes(root: Path, *args: str) -> dict[str, str]:
    """test name -> PASSED / FAILED / …, from `pytest -rA` run in `root`."""
    done = pytest_in(root, "-q", "-rA", *args)
    found = {}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED", "ERROR") and "::" in rest:
            found[rest.split("::")[-1].split(" ")[0]] = word
    return found


def test_the_fast_lane_runs_the_rest_and_fails_an_unmarked_model_read(tree):
    for name in ("imported e2e", "imported heavy"):
        (tree / name).unlink(missing_ok=True)
    assert outcomes(tree, "-m", FAST) == {
        "test_plain": "PASSED", "test_writes_a_checkpoint_and_reads_a_tokenizer": "PASSED",
        "test_reads_a_checkpoint_unmarked": "FAILED", "test_reads_a_model_folder_unmarked": "FAILED"}
    assert not (tree / "imported e2e").exists() and not (tree / "imported heavy").exists()


def test_each_test_gets_its_lane(tree):
    """Collected with a plugin that prints each test's marks after tests/conftest.py gave them."""
    (tree / "print_marks.py").write_text(
        "import pytest\n\n@pytest.hookimpl(trylast=True)\ndef pytest_collection_modifyitems(items):\n"
        "    for item in items:\n"
        "        print('MARKS', item.name, ','.join(sorted(m.name for m in item.iter_markers())))\n")
    done = pytest_in(tree, "--collect-only", "-q", "-p", "print_marks")
    marks = dict(line.split(" ", 2)[1:] for line in done.stdout.splitlines() if line.startswith("MARKS "))
    assert marks == {"test_in_chromium": "browser", "test_replicas": "deploy",
                     "test_direct": "model", "test_through_another_fixture": "model",
                     "test_reads_a_checkpoint_marked": "model", "test_heavy": "model", "test_plain": "",
                     "test_reads_a_checkpoint_unmarked": "", "test_reads_a_model_folder_unmarked": "",
                     "test_writes_a_checkpoint_and_reads_a_tokenizer": ""}, done.stdout + done.stderr
