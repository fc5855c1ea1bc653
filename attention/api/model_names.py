"""What `model=` means in every public function: a registry name ("minilm", "translator", "smollm2") or a
model folder, the default named in each signature. None, which used to mean different models in different
functions, still works for one release with a DeprecationWarning and means the function's own default."""

from __future__ import annotations

import warnings

MINILM = "minilm"  # all-MiniLM-L6-v2, shipped in a PyPI package (the default of the tracing functions)
TRANSLATOR = "translator"  # the built-in English -> Spanish translator
SMOLLM2 = "smollm2"  # SmolLM2-135M-Instruct, expanded once on first use (the default of the writing functions)


def named(model: str | None, default: str, function: str) -> str:
    """`model` as a registry name or folder; None is the function's default, with a warning (deprecated).

    Args:
        model: what the caller gave.
        default: the function's own default.
        function: the public function's name, for the warning.

    Returns:
        str: the registry name or folder to read.
    """
    if model is None:
        warnings.warn(f"attention.{function}(model=None) is deprecated: name the model (model={default!r})",
                      DeprecationWarning, stacklevel=3)
        return default
    return model


def renamed(new: str, old: str, value, old_value, function: str):
    """A keyword renamed: the old one still read for one release, with a warning.

    Args:
        new: the keyword's new name.
        old: its old name.
        value: what the caller gave under the new name.
        old_value: what the caller gave under the old name (None: nothing).
        function: the public function's name, for the warning.

    Returns:
        the value to use: the old keyword's when it was given.
    """
    if old_value is None:
        return value
    warnings.warn(f"attention.{function}({old}=...) is now {new}=", DeprecationWarning, stacklevel=3)
    return old_value
