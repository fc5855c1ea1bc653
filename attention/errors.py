"""The errors a caller of the package may catch, defined below everything that raises them.

Here and not in attention/__init__.py: capture/ raises ModelLoadError, and the package calls capture/,
so an error defined in the package would be an import circle (tests/test_import_cycles.py).
"""


class ModelLoadError(RuntimeError):
    """A model folder that could not be read (missing, not a transformers model, unsupported)."""
