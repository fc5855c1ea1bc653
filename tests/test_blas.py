"""The recomputation runs numpy's BLAS on one thread (attention/blas.py says why), and gives it back."""

import numpy as np
from threadpoolctl import threadpool_info

from attention import blas


def blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_one_thread_inside_the_block_and_the_setting_restored_after():
    assert blas_threads(), "numpy's BLAS was not found: the limit would do nothing"
    before = blas_threads()
    with blas.one_thread():
        assert blas_threads() == {1}
        np.ones((64, 64)) @ np.ones((64, 64))
    assert blas_threads() == before
